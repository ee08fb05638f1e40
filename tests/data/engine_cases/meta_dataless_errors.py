import torch
x = torch.empty(2**20, 2**10, device="meta")
print(x.shape, x.dtype, x.device, x.is_meta, x.numel(), x.dim())
try:
    x.item()
except Exception as e:
    print(repr(e))
try:
    x.numpy()
except Exception as e:
    print(repr(e))
y = torch.empty(3, device="meta")
try:
    print(y[0].item())
except Exception as e:
    print(repr(e))
try:
    x + torch.ones(2**10)
except Exception as e:
    print(repr(e))
z = x.to("meta")
print(z)
print(x.to(torch.float16))
print(x.new_empty((2**30, 4)))
m = torch.nn.Linear(1024, 1024).to("meta")
print(m.weight)
print(m(torch.randn(2**13, 1024, device="meta")))
print(torch.zeros(5, device="meta") + 1)
print(x.sum(dim=(0, 1), keepdim=True), x.amax(-1), x.var(0, unbiased=False), x.norm(2, 1))
w = torch.empty(2**30, device="meta")
w.tolist()
