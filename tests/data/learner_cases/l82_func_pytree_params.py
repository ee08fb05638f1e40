import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, vjp, jvp, vmap

torch.manual_seed(7)
model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 2))
params = {k: p.detach() for k, p in model.named_parameters()}
x = torch.randn(4, 3)

def f(params, xi):
    return functional_call(model, params, (xi.unsqueeze(0),)).squeeze(0)

# the Jacobian with respect to a dict of parameters is a dict of Jacobians
jac = jacrev(f)(params, x[0])
{k: tuple(j.shape) for k, j in jac.items()}
jac["2.bias"]
per_sample = vmap(jacrev(f), (None, 0))(params, x)
per_sample["0.weight"].shape

def both(params, xi):
    out = f(params, xi)
    return out, out.sum()

j_out, j_sum = jacrev(both)(params, x[1])
j_sum["2.weight"]
jacrev(f, argnums=(0, 1))(params, x[2])[1]

# vjp and jvp take the same dicts
out, vjp_fn = vjp(lambda p: f(p, x[3]), params)
grads = vjp_fn(torch.tensor([1.0, -1.0]))
type(grads), sorted(grads[0])
grads[0]["0.bias"]
value, tangent_out = jvp(lambda p: f(p, x[3]), (params,), grads)
tangent_out
