# the regularized incomplete gamma functions: torch.igamma / igammac and torch.special.gammainc /
# gammaincc (P and Q = 1 - P), their gradient in x, and no gradient in a
import torch
a = torch.tensor([0.5, 1.0, 2.0, 5.0, 0.0, -1.0, 20.0, 20.0], dtype=torch.float64)
x = torch.tensor([0.3, 1.0, 3.0, 2.5, 1.0, 1.0, 10.0, 30.0], dtype=torch.float64, requires_grad=True)
p = torch.igamma(a, x)
q = torch.special.gammaincc(a, x)
print(p, q)
print(torch.special.gammainc(a, x) + a.igammac(x))
print(torch.igamma(a, torch.tensor([0.0, float("inf")], dtype=torch.float64).repeat(4)))
q.sum().backward()
print(x.grad)
print(torch.igamma(torch.tensor([3.0, 0.5], dtype=torch.float64), torch.tensor([[0.5], [10.0]], dtype=torch.float64)))
b = a.clone()
print(b.igamma_(x.detach()), b)
try:
    torch.igamma(torch.tensor([1, 2]), torch.tensor([1, 2]))
except NotImplementedError as e:
    print(e)
try:
    torch.igamma(a, 2.0)
except TypeError as e:
    print(e)
w = torch.tensor([2.0], dtype=torch.float64, requires_grad=True)
torch.igamma(w, torch.tensor([1.0], dtype=torch.float64)).backward()
