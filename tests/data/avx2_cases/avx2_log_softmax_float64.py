# float64 log_softmax over the last dim and its backward: PyTorch sums in Vectorized<double>'s
# lanes (4 on AVX2; a partial last vector adds into the first lanes), then the lanes in order;
# the backward's grad - exp(out) * sum is one multiply-add. (gradrepl's float64 exp and log are
# NumPy's, not Sleef's: about 1 in 50 elements still differs by an ulp; a.grad[3, 2] does.)
import torch
_ = torch.manual_seed(0)
for n in (3, 4, 5, 7, 9, 13, 17):
    x = (torch.randn(6, n, dtype=torch.float64) * 3).requires_grad_()
    y = x.log_softmax(-1)
    y.backward(torch.randn(6, n, dtype=torch.float64))
    print(n, y.sum().item(), x.grad[0].tolist(), x.grad[-1, -3:].tolist())
a = torch.randn(12, 3, 5).double().requires_grad_()
out = torch.log_softmax(a, 2)
(out * torch.arange(5.0, dtype=torch.float64)).sum().backward()
a.grad[3, :2].tolist()
b = torch.linspace(-4, 4, 11, dtype=torch.float64, requires_grad=True)
torch.nn.functional.log_softmax(b, dim=0).sum().backward()
b.grad.tolist()
