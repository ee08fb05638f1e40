import torch
w = torch.tensor([1.0, -1.0], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
w.data -= 0.1 * w.grad.data
print(w)
w.grad.data.zero_()
print(w.grad)
print(w.data, w.data.requires_grad)
print(w.grad.data.norm())
