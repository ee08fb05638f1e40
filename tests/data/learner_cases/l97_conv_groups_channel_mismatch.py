import torch
import torch.nn.functional as F
x = torch.ones(1, 4, 6, 6)
w = torch.ones(4, 1, 3, 3)
y = F.conv2d(x, w, groups=4)
y.shape
y[0, :, 0, 0]
F.conv2d(x, torch.ones(8, 2, 3, 3), groups=2).shape
F.conv2d(x, torch.ones(4, 2, 3, 3), groups=4)
