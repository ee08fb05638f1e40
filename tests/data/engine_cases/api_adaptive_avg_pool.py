import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(11)
images = torch.randn(2, 3, 9, 7, requires_grad=True)
pooled = F.adaptive_avg_pool2d(images, (4, 3))
print(pooled[0, 0], pooled.grad_fn)
print(F.adaptive_avg_pool2d(images, 1).grad_fn, F.adaptive_avg_pool2d(images, (None, 2)).shape)
head = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(4, 2))
print(head)
logits = head(images)
print(logits)
loss = F.cross_entropy(logits, torch.tensor([1, 0])) + (pooled * torch.arange(12.0).view(4, 3)).mean()
loss.backward()
print(loss, images.grad[1, 2, :3])
seq = torch.randn(2, 4, 10, requires_grad=True)
short = nn.AdaptiveAvgPool1d(3)(seq)
print(nn.AdaptiveAvgPool1d(3), short, short.grad_fn)
for bad in [lambda: F.adaptive_avg_pool2d(torch.ones(5, 7), 2), lambda: F.adaptive_avg_pool2d(images, (2, 3, 4)),
            lambda: F.adaptive_avg_pool1d(torch.ones(5), 2)]:
    try:
        bad()
    except RuntimeError as err:
        print(err)
