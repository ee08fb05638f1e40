import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 6, 4, 4, requires_grad=True)
y = F.channel_shuffle(x, 3)
print(y.grad_fn.name(), y[0, :, 0, 0])
(y * torch.arange(192.).view(2, 6, 4, 4)).sum().backward()
print(x.grad[0, :, 0, 0])
print(nn.ChannelShuffle(2), nn.ChannelShuffle(2)(x).shape)
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
print(unpool)
out, idx = pool(x)
r = unpool(out, idx)
print(r.grad_fn.name(), r.shape, r[0, 0])
r2 = unpool(out, idx, output_size=x.size())
print(r2.shape)
x.grad = None
(r * torch.arange(192.).view(2, 6, 4, 4)).sum().backward()
print(x.grad[0, 0])
s = torch.tensor([[[1., 2, 3, 4, 5, 6, 7, 8]]], requires_grad=True)
o, i = F.max_pool1d(s, 2, return_indices=True)
u = nn.MaxUnpool1d(2)(o, i)
print(nn.MaxUnpool1d(2), u, u.grad_fn.name(), u.grad_fn.next_functions[0][0].name())
print(F.max_unpool1d(o, i, 2, output_size=[9]))
a = torch.randn(5, 3, requires_grad=True)
p = torch.randn(5, 3)
n = torch.randn(5, 3)
crit = nn.TripletMarginWithDistanceLoss()
print(crit)
loss = crit(a, p, n)
loss.backward()
print(loss, a.grad[0])
l2 = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1.0 - F.cosine_similarity(u, v), margin=0.5,
                                      swap=True, reduction="sum")
print(l2(a, p, n))
print(F.triplet_margin_with_distance_loss(a, p, n, reduction="none"))
for bad in (lambda: F.channel_shuffle(torch.randn(2, 5, 2), 3), lambda: F.channel_shuffle(torch.randn(5), 1),
            lambda: F.max_unpool2d(out, idx, 2, output_size=(9, 9)), lambda: F.max_unpool2d(out, idx, 2, stride=1),
            lambda: nn.TripletMarginWithDistanceLoss(margin=0)):
    try:
        bad()
    except Exception as e:
        print(repr(e))
