# BatchNorm's outputs and running statistics to the last bit (float32), as in the
# introyt "Building Models" page: the mean of a normalised tensor is rounding noise
import torch
torch.manual_seed(0)
torch.set_num_threads(2)     # the (N, C) kernel sums in per-thread blocks
my_tensor = torch.rand(1, 4, 4) * 20 + 5
norm_layer = torch.nn.BatchNorm1d(4)
normed_tensor = norm_layer(my_tensor)
normed_tensor.tolist()
normed_tensor.mean()
norm_layer.running_mean.tolist(), norm_layer.running_var.tolist()
for shp, cls in (((3, 5, 7), torch.nn.BatchNorm1d), ((8, 4), torch.nn.BatchNorm1d),
                 ((2, 3, 4, 4), torch.nn.BatchNorm2d), ((37, 6), torch.nn.BatchNorm1d)):
    bn = cls(shp[1], momentum=0.3)
    with torch.no_grad():
        bn.weight.uniform_(0.5, 2.0)
        bn.bias.uniform_(-1, 1)
    for step in range(3):
        y = bn(torch.randn(shp) * 3 + 1)
        print(y.sum().item(), y.flatten()[:4].tolist())
    print(bn.running_mean.tolist(), bn.running_var.tolist())
    bn.eval()
    y = bn(torch.randn(shp))
    print(y.sum().item(), y.flatten()[:4].tolist())
