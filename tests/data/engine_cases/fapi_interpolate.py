import torch
import torch.nn.functional as F
_ = torch.manual_seed(4)
x = torch.randn(1, 2, 3, 4, requires_grad=True)
near = F.interpolate(x, scale_factor=2)
print(near[0, 0], near.grad_fn)
print(F.interpolate(x, size=(5, 3))[0, 1])
bil = F.interpolate(x, size=(5, 7), mode="bilinear")
print(bil)
ac = F.interpolate(x, scale_factor=(1.5, 2.5), mode="bilinear", align_corners=True)
print(ac.shape, ac[0, 1])
s = torch.randn(2, 3, 5, requires_grad=True)
lin = F.interpolate(s, size=8, mode="linear")
print(lin[1], lin.grad_fn)
print(F.interpolate(s, scale_factor=0.6, mode="linear", align_corners=True))
print(F.interpolate(s, scale_factor=1.7)[0], F.interpolate(s, size=7, mode="nearest-exact")[1, 0])
print(F.interpolate(x, scale_factor=0.5, mode="area"), F.interpolate(s, size=3, mode="area").grad_fn)
t = F.interpolate(x.detach()[None], scale_factor=2, mode="trilinear")
print(t.shape)
w = torch.arange(96.0).view(1, 2, 6, 8) / 10
(near * w).sum().backward()
print(x.grad)
x.grad = None
(bil * torch.arange(70.0).view(1, 2, 5, 7)).sum().backward()
print(x.grad)
x.grad = None
(ac * ac).sum().backward()
print(x.grad[0, 0])
(lin * torch.arange(48.0).view(2, 3, 8)).sum().backward()
print(s.grad)
print(F.upsample_nearest(x, scale_factor=2).shape, F.upsample_bilinear(x, size=(4, 4))[0, 0])
print(F.upsample(x, scale_factor=3, mode="bilinear")[0, 0, 0])
for bad in [lambda: F.interpolate(x, scale_factor=2, mode="linear"), lambda: F.interpolate(x, size=(2, 3, 4)),
            lambda: F.interpolate(x, size=4, scale_factor=2), lambda: F.interpolate(x, scale_factor=2, align_corners=True),
            lambda: F.interpolate(x), lambda: F.interpolate(s, scale_factor=2, mode="bilinear")]:
    try:
        bad()
    except (ValueError, NotImplementedError) as err:
        print(err)
