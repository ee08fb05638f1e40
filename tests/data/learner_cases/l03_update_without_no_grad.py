import torch
w = torch.randn(3, requires_grad=True)
x = torch.tensor([1.0, 2.0, 3.0])
loss = (w * x).sum()
loss.backward()
print(w.grad)
w = w - 0.1 * w.grad
print(w.is_leaf, w.grad_fn)
loss = (w * x).sum()
loss.backward()
print(w.grad)
