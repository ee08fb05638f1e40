import torch

def exp(v):
    return v * 2

print(exp(torch.tensor([1., 2.])))
sq = lambda tensor: tensor * tensor
print(sq(torch.ones(2)))
vals = [torch.sqrt(t) for t in [torch.tensor(4.), torch.tensor(9.)]]
print(vals)

def scale(k):
    def apply(v, log=torch.log):
        return log(v) * k
    return apply

print(scale(2.0)(torch.tensor([1., 4.])))
ones = 5
print(ones + 1)
for i in range(2):
    print(i, torch.zeros(i + 1))
with torch.no_grad():
    q = torch.tensor([1.], requires_grad=True) * 3
print(q.requires_grad)
