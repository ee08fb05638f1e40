x = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
y = torch.tensor([1.5, 0.7, -0.4], requires_grad=True)
terms = [torch.atan2(x, y), torch.asinh(x), torch.erf(x), torch.erfc(x), torch.lgamma(x.abs() + 1),
         torch.digamma(x.abs() + 1), torch.frac(x), torch.fmod(x, 0.5), torch.remainder(x, 0.5),
         torch.lerp(x, y, 0.3), torch.hypot(x, y), torch.logit(torch.sigmoid(x)), torch.xlogy(x, y.abs()),
         torch.addcmul(x, x, y, value=2.0), torch.addcdiv(x, x, y), torch.float_power(x.abs(), 1.5),
         torch.fmax(x, y), torch.logaddexp(x, y), torch.copysign(x, y), torch.trunc(x), torch.erfinv(x / 3)]
for t in terms:
    print(t.grad_fn.name())
total = sum(t.sum() for t in terms)
total
total.backward()
x.grad
y.grad
