import torch
torch.manual_seed(27)
names = ["alpha", "beta", "gamma"]
values = torch.randn(3)
for name, v in zip(names, values):
    print(name, round(v.item(), 4))
d = {n: v.item() for n, v in zip(names, values)}
for k, v in sorted(d.items(), key=lambda kv: kv[1]):
    print(f"{k}: {v:.3f}")
best = max(d, key=d.get)
print("best:", best)
squares = [i ** 2 for i in range(5) if i % 2 == 0]
print(squares, sum(squares))
matrix = torch.tensor([[i * j for j in range(3)] for i in range(3)])
print(matrix)
pairs = list(enumerate(values.tolist()))
print(pairs[0][0], len(pairs))
print(d["delta"])
