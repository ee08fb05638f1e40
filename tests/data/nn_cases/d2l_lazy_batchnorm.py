# nn.LazyBatchNorm1d/2d/3d (d2l's batch-norm, ResNet and DenseNet chapters): num_features from the
# first input's dim 1, then an ordinary BatchNorm; uninitialized tensors in repr and state_dict
import torch
from torch import nn
_ = torch.manual_seed(0)
bn = nn.LazyBatchNorm2d()
bn
list(bn.named_parameters())
list(bn.named_buffers())
bn.state_dict()
y = bn(torch.arange(24.).reshape(2, 3, 2, 2))
bn
bn.num_features, bn.num_batches_tracked
bn.running_mean, bn.running_var
y[0, 0]
plain = nn.LazyBatchNorm1d(eps=1e-3, momentum=None, affine=False, track_running_stats=False)
plain
plain(torch.randn(4, 5)).shape
plain, list(plain.parameters()), list(plain.buffers())
wrong = nn.LazyBatchNorm2d()
try:
    wrong(torch.ones(3, 4))
except ValueError as e:
    print("ValueError:", e)
wrong
flat = nn.LazyBatchNorm1d()
try:
    flat(torch.ones(3))
except IndexError as e:
    print("IndexError:", e)
flat
nn.LazyBatchNorm3d()(torch.ones(2, 2, 1, 1, 2)).shape
frozen = nn.LazyBatchNorm1d(dtype=torch.float64)
frozen.eval()
frozen(torch.ones(2, 3, dtype=torch.float64))
frozen.running_mean
net = nn.Sequential(nn.LazyConv2d(4, kernel_size=3), nn.LazyBatchNorm2d(), nn.Sigmoid(),
                    nn.Flatten(), nn.LazyLinear(5), nn.LazyBatchNorm1d())
net.state_dict()
out = net(torch.randn(6, 1, 5, 5))
net
out.sum().backward()
net[1].weight.grad.shape, net[5].bias.grad
trained = net.state_dict()
fresh = nn.Sequential(nn.LazyConv2d(4, kernel_size=3), nn.LazyBatchNorm2d(), nn.Sigmoid(),
                      nn.Flatten(), nn.LazyLinear(5), nn.LazyBatchNorm1d())
fresh.load_state_dict(trained)
fresh[5].running_var.shape, fresh[1].num_batches_tracked
fresh
