# Saving a model's weights and loading them into a fresh model, as the quickstart does
import torch
from torch import nn
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.scale = 2

    def forward(self, x):
        return self.fc(x) * self.scale

net = Net()
torch.save(net.state_dict(), "weights.pth")
print("saved")
with torch.no_grad():
    net.fc.weight.fill_(0.5)          # changing the model later leaves the file alone
fresh = Net()
fresh.load_state_dict(torch.load("weights.pth"))
fresh.fc.weight
torch.load("./weights.pth", weights_only=True, map_location="cpu")["fc.bias"]
sd = torch.load("weights.pth")
sd["fc.bias"].requires_grad, sd["fc.bias"].is_leaf
sd["fc.bias"] is torch.load("weights.pth")["fc.bias"]
net.fc.weight
x = torch.ones(1, 3)
fresh(x)

# a training checkpoint: epoch, model and optimizer state, loss
opt = torch.optim.SGD(fresh.parameters(), lr=0.1, momentum=0.9)
fresh(x).sum().backward()
opt.step()
torch.save({"epoch": 3, "model_state_dict": fresh.state_dict(),
            "optimizer_state_dict": opt.state_dict(), "loss": 0.25}, "ckpt.tar")
ckpt = torch.load("ckpt.tar")
ckpt["epoch"], ckpt["loss"]
ckpt["model_state_dict"]
opt2 = torch.optim.SGD(Net().parameters(), lr=0.5)
opt2.load_state_dict(ckpt["optimizer_state_dict"])
opt2.param_groups[0]["lr"]

# tensors and parameters keep what pickling keeps
w = torch.ones(2, requires_grad=True) * 3
torch.save([w, nn.Parameter(torch.zeros(2)), torch.arange(3), (1, "a", None)], "things.pt")
torch.load("things.pt")
torch.save(torch.tensor([1.5, 2.5]), "t.pt")
torch.load("t.pt")
seq = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
torch.save(seq, "whole.pth")
m = torch.load("whole.pth", weights_only=False)
m
m(x)
m[0].weight is seq[0].weight, m[0].weight.requires_grad
torch.load("missing.pth")
