import torch
from torch import nn, optim
torch.manual_seed(12)
X = torch.randn(32, 3)
true_w = torch.tensor([[1.0], [-2.0], [0.5]])
y = X @ true_w + 0.3
model = nn.Linear(3, 1)
optimizer = optim.Adam(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
history = []
for epoch in range(50):
    optimizer.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    optimizer.step()
    history.append(loss.item())
print(f"first {history[0]:.4f} last {history[-1]:.4f}")
print(len(optimizer.state), list(optimizer.state_dict()['param_groups'][0].keys())[:4])
print(optimizer.param_groups[0]['betas'])
print(model.weight.data.round(decimals=2))
