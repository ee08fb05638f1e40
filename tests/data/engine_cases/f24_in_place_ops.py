import torch
a = torch.tensor([1.0, 2.0, 3.0])
a.add_(1)
a.mul_(2)
a.sub_(torch.tensor([1.0, 1.0, 1.0]))
a.div_(2)
print(a)
a[0] = 10
a[1:] += 1
print(a)
b = torch.zeros(2, 2)
b[0, :] = torch.tensor([1.0, 2.0])
b[:, 1] = 5
print(b)
a.clamp_(0, 5)
print(a, a.fill_(7), torch.ones(2).zero_())
