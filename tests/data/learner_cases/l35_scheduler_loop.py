import torch
from torch import nn, optim
torch.manual_seed(35)
model = nn.Linear(4, 2)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
x = torch.randn(8, 4)
y = torch.randint(0, 2, (8,))
for epoch in range(7):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    scheduler.step()
    print(epoch, scheduler.get_last_lr(), round(loss.item(), 4))
cos = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
print(cos.get_last_lr())
print(opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"])
