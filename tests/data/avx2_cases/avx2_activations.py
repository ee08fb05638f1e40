import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(20) * 2
torch.sigmoid(x).tolist()
F.silu(x).tolist()
F.softplus(x).tolist()
F.mish(x).tolist()
F.elu(x).tolist()
F.selu(x).tolist()
torch.sinh(x).tolist()
(x.abs() ** 2.5).tolist()
y = torch.randn(3, 50)
torch.softmax(y, 1).tolist()
torch.log_softmax(y, 1).tolist()
torch.softmax(torch.randn(2, 17), 0).tolist()
F.cross_entropy(torch.randn(15, 8), torch.arange(15) % 8).item()
