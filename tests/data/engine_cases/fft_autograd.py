import torch
xr = torch.tensor([1., 2., 3., 4., 5.], requires_grad=True)
zr = torch.tensor([1+1j, 2-1j, 0.5j, 3.], requires_grad=True)
y = torch.fft.fft(xr)
print(y.grad_fn.name())
y.abs().pow(2).sum().backward()
print(xr.grad)
xr.grad = None
torch.fft.fft(xr, n=8).real.sum().backward()
print(xr.grad)
xr.grad = None
torch.fft.rfft(xr).abs().pow(2).sum().backward()
print(xr.grad)
xr.grad = None
torch.fft.ihfft(xr).imag.sum().backward()
print(xr.grad)
u = torch.fft.irfft(zr)
print(u.grad_fn.name())
u.pow(2).sum().backward()
print(zr.grad)
zr.grad = None
torch.fft.fft(zr).abs().sum().backward()
print(zr.grad)
