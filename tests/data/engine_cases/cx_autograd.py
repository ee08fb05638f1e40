import torch
x = torch.tensor([1+2j, 3-4j], requires_grad=True)
print(x * x, x.exp(), x.sum(), x.abs(), x.real, x.conj(), torch.view_as_real(x))
(x * (1 + 2j)).abs().sum().backward()
print(x.grad)
x.grad = None
x.exp().abs().sum().backward()
print(x.grad)
x.grad = None
(x / (2 - 1j)).abs().sum().backward()
print(x.grad)
x.grad = None
((1 + 1j) / x).abs().sum().backward()
print(x.grad)
x.grad = None
x.angle().sum().backward()
print(x.grad)
x.grad = None
(x.real * 3 + x.imag * 5).sum().backward()
print(x.grad)
x.grad = None
(x.conj() * x).real.sum().backward()
print(x.grad)
x.grad = None
(x.sin() + x.sqrt() + x.log()).abs().sum().backward()
print(x.grad)
x.grad = None
x.sgn().real.sum().backward()
print(x.grad)
r = torch.tensor([0.5, -1.5], requires_grad=True)
(r * 1j).imag.sum().backward()
print(r.grad)
r.grad = None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([0.5, -1.], requires_grad=True)
torch.polar(a, b).imag.sum().backward()
print(a.grad, b.grad)
a.grad = None
b.grad = None
z = torch.complex(a, b)
(z * z).abs().sum().backward()
print(a.grad, b.grad)
