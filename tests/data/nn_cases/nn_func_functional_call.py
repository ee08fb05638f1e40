import torch
from torch import nn
from torch.func import functional_call, grad, vmap

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
x = torch.randn(4, 3)
params = {k: v.detach() for k, v in model.named_parameters()}
zeros = {k: torch.zeros_like(v) for k, v in params.items()}
functional_call(model, zeros, (x,))
functional_call(model, params, x).squeeze(1)
model(x).squeeze(1)
functional_call(model, {"2.bias": torch.tensor([5.0])}, (x,)).squeeze(1)
model[2].bias

def loss(p, xs):
    return functional_call(model, p, (xs,)).pow(2).mean()

g = grad(loss)(params, x)
list(g.keys())
g["2.bias"]
per_sample = vmap(grad(loss), in_dims=(None, 0))(params, x.unsqueeze(1))
{k: tuple(v.shape) for k, v in per_sample.items()}
per_sample["2.bias"].squeeze(1)
grad(lambda ab: (ab[0] * ab[1]).sum())((torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
functional_call(model, ({"0.bias": torch.zeros(2)}, {"0.bias": torch.ones(2)}), (x,))
