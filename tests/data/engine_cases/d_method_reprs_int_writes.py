import torch
scores = torch.tensor([1.0, 2.0])
scores.sum
scores.backward
print(scores.exp, scores.register_hook)
scores.add_
total = scores.mean
total()
torch.nn.Parameter(torch.ones(1)).sum
for dt in [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool]:
    counts = torch.zeros(2, dtype=dt)
    for v in [float('nan'), 300.0, 1e20, -2.5]:
        try:
            counts[0] = v
            print(dt, counts)
        except RuntimeError as e:
            print(dt, e)
try:
    torch.ones(3).dot(torch.ones(4, dtype=torch.long))
except RuntimeError as e:
    print(e)
torch.arange(4)[1:] = float('inf')
