import torch
w = torch.tensor([1., 2.], requires_grad=True)
w.data = w.data * 10
print(w)
w.data = torch.tensor([1., 2.], dtype=torch.float64)
print(w)
plain = torch.ones(2)
plain.data = torch.tensor([1, 2])
print(plain)
y = w * 2
try:
    y.data = torch.tensor([True, False])
except RuntimeError as e:
    print(e)
w.data = torch.tensor([1, 2])
