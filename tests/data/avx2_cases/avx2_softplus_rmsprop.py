import torch
from torch.utils.data import DataLoader, TensorDataset
from torch import nn
torch.manual_seed(786)
X = torch.randn(8, 2)
y = (X[:, :1] * 2 - 1)
model = nn.Sequential(nn.Linear(2, 5), nn.Softplus(), nn.Linear(5, 1))
loss_fn = nn.L1Loss()
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
loader = DataLoader(TensorDataset(X, y), batch_size=4, shuffle=True)
for epoch in range(6):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    sched.step()
    print(epoch, total / len(X))
