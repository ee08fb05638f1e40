import torch
t = torch.tensor([1, 2, 3])
print(t, t.dtype)
print(t * 0.5)
print(t / 2)
print(t // 2)
torch.tensor([1, 2], requires_grad=True)
