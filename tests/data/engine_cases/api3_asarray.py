# torch.asarray: a tensor comes back itself (graph and all) unless a copy or another dtype is asked
# for; a NumPy array is shared; Python data as torch.tensor infers it
import torch
import numpy as np
t = torch.tensor([1.0, 2.0], requires_grad=True)
a = torch.asarray(t)
print(a is t, a)
b = torch.asarray(t, dtype=torch.float64)
print(b, b.grad_fn)
c = torch.asarray(t, copy=True)
print(c, c is t)
d = torch.asarray(t, requires_grad=False)
print(d, d is t, d.requires_grad)
y = t * 2
e = torch.asarray(y, requires_grad=True)
print(e, e is y, e.is_leaf)
print(torch.asarray([1, 2, 3]), torch.asarray([1.5, 2]), torch.asarray(3), torch.asarray(2.5), torch.asarray(True))
print(torch.asarray([[1, 2], [3, 4]], dtype=torch.float32), torch.asarray((1, 2.5)), torch.asarray(range(3)))
print(torch.asarray([1.0, 2.0], requires_grad=True), torch.asarray([torch.tensor(1.0), torch.tensor(2.0)]))
n = np.array([1.0, 2.0])
shared = torch.asarray(n)
copied = torch.asarray(n, copy=True)
n[0] = 5
print(shared, copied, torch.asarray(n, dtype=torch.float32))
print(torch.asarray(torch.tensor([1, 2]), dtype=torch.float32), torch.asarray([1, 2], device="cpu"))
try:
    torch.asarray(t, dtype=torch.float64, copy=False)
except ValueError as ex:
    print(ex)
try:
    torch.asarray("abc")
except TypeError as ex:
    print(ex)
torch.asarray(torch.tensor([1, 2]), requires_grad=True)
