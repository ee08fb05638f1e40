import torch
from torch import nn
import torch.nn.utils.parametrize as P

torch.manual_seed(3)

class UpperTriangular(nn.Module):
    def forward(self, W):
        return W.triu()

    def right_inverse(self, W):
        return W.triu()

class Doubled(nn.Module):
    def forward(self, W):
        return 2 * W

    def right_inverse(self, W):
        return W / 2

lin = nn.Linear(3, 3)
P.is_parametrized(lin)
P.register_parametrization(lin, "weight", UpperTriangular())
P.is_parametrized(lin), P.is_parametrized(lin, "weight"), P.is_parametrized(lin, "bias")
lin.weight
[name for name, _ in lin.named_parameters()]
list(lin.state_dict().keys())
lin.parametrizations.weight.original.shape
out = lin(torch.ones(2, 3)).sum()
out.backward()
lin.parametrizations.weight.original.grad
P.register_parametrization(lin, "weight", Doubled())
lin.weight = torch.eye(3)
lin.weight
lin.parametrizations.weight.original
P.remove_parametrizations(lin, "weight")
lin.weight
type(lin.weight)
P.register_parametrization(lin, "bias", Doubled())
with P.cached():
    print("cached:", lin.bias is lin.bias)
lin.bias is lin.bias
P.register_parametrization(lin, "scale", Doubled())
