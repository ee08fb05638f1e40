import torch
a = torch.arange(6.)
b = a.view(2, 3)
b[0, 0] = 100
print(a)
c = a.reshape(3, 2)
c += 1
print(a, b)
d = b.t()
print(d.is_contiguous())
print(d.contiguous().view(-1))
e = a.clone()
e[0] = -1
print(a[0], e[0])
f = a[1:4]
f.zero_()
print(a)
d.view(-1)
