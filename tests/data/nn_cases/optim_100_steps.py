import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(64, 3)
Y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.1 * torch.randn(64, 1)


def train(make, steps=100):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(3, 37), nn.Tanh(), nn.Linear(37, 1))
    opt = make(model.parameters())
    for step in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X), Y)
        loss.backward()
        opt.step()
    print(type(opt), loss)
    print(model[0].weight[0])
    print(model[2].bias)
    return opt


train(lambda p: torch.optim.SGD(p, lr=0.05))
train(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9))
train(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3))
train(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.5, dampening=0.1, maximize=False))
train(lambda p: torch.optim.Adam(p, lr=0.01))
train(lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=0.01, amsgrad=True))
train(lambda p: torch.optim.AdamW(p, lr=0.01))
train(lambda p: torch.optim.RMSprop(p, lr=0.001))
train(lambda p: torch.optim.RMSprop(p, lr=0.001, momentum=0.9, centered=True, weight_decay=0.01))
train(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.001))
opt = train(lambda p: torch.optim.Adam(p, lr=0.01), steps=2)
print(opt)
sd = opt.state_dict()
print(sorted(sd["state"]))
print(sd["state"][1]["step"], sd["state"][3]["exp_avg"])
print(sd["param_groups"])
