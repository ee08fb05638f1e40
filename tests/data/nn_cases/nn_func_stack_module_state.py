import torch
from torch import nn
from torch.func import stack_module_state, functional_call, vmap

torch.manual_seed(2)
models = [nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)) for _ in range(3)]
params, buffers = stack_module_state(models)
{k: tuple(v.shape) for k, v in params.items()}
{k: tuple(v.shape) for k, v in buffers.items()}
params["0.bias"].is_leaf, params["0.bias"].requires_grad, buffers["1.num_batches_tracked"]
x = torch.randn(4, 2)
for m in models:
    m.eval()

def run(p, b, inp):
    return functional_call(models[0], (p, b), (inp,))

out = vmap(run, in_dims=(0, 0, None))(params, buffers, x)
out.shape
torch.allclose(out, torch.stack([m(x) for m in models]))
models[1].train()
stack_module_state(models)
