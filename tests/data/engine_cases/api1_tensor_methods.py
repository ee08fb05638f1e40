import torch
x = torch.tensor([1.5, 2.0, 3.5], requires_grad=True)
p = x.polygamma(1)
p
torch.polygamma(0, x)
m = x.mvlgamma(2)
m
(p.sum() + m.sum()).backward()
x.grad
torch.special.multigammaln(x, 3)
n = torch.nextafter(x, torch.tensor([0., 5., 5.]))
n
n.tolist()
n.sum().backward()
a = torch.arange(12.).reshape(4, 3).requires_grad_()
parts = torch.unsafe_chunk(a, 2)
parts
parts[1].output_nr
u = a.unsafe_split(3, 1)
u
torch.unsafe_split_with_sizes(a, [1, 3])
(parts[0] * 2).sum().backward()
a.grad
gen = torch.manual_seed(0)
probs = torch.tensor([0.1, 0.5, 0.9, 0.3])
probs.bernoulli()
torch.ones(2, 3).bernoulli(0.5)
q = torch.tensor([[2., 1.], [1., 3.]])
q.logdet()
q.slogdet()
q.pinverse()
x.output_nr
x.is_pinned()
x.is_shared()
x.share_memory_() is x
x.get_device()
torch.get_device(x)
torch.has_lapack, torch.has_mkl, torch.has_openmp
torch.newaxis is None
torch.legacy_contiguous_format
torch.is_warn_always_enabled()
try:
    torch.solve(q, q)
except RuntimeError as e:
    print(e)
try:
    q.lstsq(q)
except RuntimeError as e:
    print(e)
try:
    torch.matrix_rank(q)
except RuntimeError as e:
    print(e)
try:
    x.pin_memory()
except RuntimeError as e:
    print(e)
try:
    x.polygamma(-1)
except RuntimeError as e:
    print(e)
try:
    torch.nextafter(x, 1.0)
except TypeError as e:
    print(e)
torch.symeig(q)
