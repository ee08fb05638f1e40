import torch
from torch import nn

class TwoLayer(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.layer1 = nn.Linear(d_in, d_hidden)
        self.layer2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        h = torch.relu(self.layer1(x))
        return self.layer2(h)

torch.manual_seed(0)
model = TwoLayer(4, 8, 3)
print(model)
n_params = sum(p.numel() for p in model.parameters())
print("params:", n_params)
for name, param in model.named_parameters():
    print(f"{name:15} {str(tuple(param.shape)):10} {param.dtype}")
x = torch.randn(2, 4)
out = model(x)
print(out.shape)
print(out)
model.layer3
