import torch
losses = []
for i in range(3):
    loss = torch.tensor([0.5 / (i + 1)])
    losses.append(loss.item())
print(losses)
print(torch.tensor(7).item())
print(torch.tensor([[2.5]]).item())
print(float(torch.tensor(1.5)))
print(int(torch.tensor(3.9)))
print(bool(torch.tensor(0.0)))
print(torch.tensor([1.0, 2.0]).sum().item())
v = torch.tensor([1.0, 2.0, 3.0])
print([e.item() for e in v])
print(v.mean().item() * 2)
try:
    float(v)
except Exception as e:
    print(type(e).__name__, e)
try:
    if v > 1:
        print("big")
except RuntimeError as e:
    print(e)
print(v.max().item())
v.item()
