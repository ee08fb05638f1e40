# BatchNorm1d in training on batches of 2 to 5 rows (a textbook's 2-sample example), 2 and 4 threads
import torch
from torch import nn
_ = torch.manual_seed(3)
for threads in (2, 4):
    torch.set_num_threads(threads)
    for n in (2, 3, 4, 5):
        x = torch.randn(n, 6, requires_grad=True)
        bn = nn.BatchNorm1d(6)
        bn.weight.data = torch.ones(6) * 4
        y = bn(x)
        (y * torch.arange(6.)).sum().backward()
        print(threads, n, y.tolist())
        print(x.grad.tolist(), bn.weight.grad.tolist())
        print(bn.running_var.tolist())
torch.set_num_threads(2)
h = torch.tensor([[-0.273354172706604, 0.30792129039764404], [-0.16302181780338287, -0.9647200703620911]])
out = nn.BatchNorm1d(2)(h)
out
out.mean(0)
