import torch
x = torch.tensor([1.0, 2.0, 3.0, 4.0])
print(torch.cumsum(x, dim=0))
print(x.cumprod(0))
print(torch.tensor([[1, 2], [3, 4]]).cumsum(dim=1))
print(torch.tensor([[1, 2], [3, 4]]).cumsum(dim=0))
print(torch.cummax(torch.tensor([1, 3, 2, 5, 4]), dim=0))
print(torch.cummin(torch.tensor([5., 3., 4., 1., 2.]), 0))
print(torch.logcumsumexp(x, 0))
rewards = torch.tensor([1.0, 0.0, 0.0, 1.0])
gamma = 0.9
returns = []
G = 0.0
for r in reversed(rewards.tolist()):
    G = r + gamma * G
    returns.append(G)
returns.reverse()
print(torch.tensor(returns))
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = w.cumsum(0)
print(c)
c.sum().backward()
print(w.grad)
p = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
q = p.cumprod(0)
q[-1].backward()
print(p.grad)
print(torch.diff(torch.tensor([1, 4, 9, 16])))
x.cumsum()
