with torch.inference_mode():
    a = torch.ones(3)
w = torch.ones(3, requires_grad=True)
y = w * a
y.sum().backward()
w.grad
z = torch.ones(3, requires_grad=True)
out = (z * 2).exp() * a
out.sum().backward()
z.grad
