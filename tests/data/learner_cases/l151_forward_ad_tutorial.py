# PyTorch's forward-mode AD tutorial (intermediate_source/forward_ad_usage.py), smaller tensors
import torch
import torch.autograd.forward_ad as fwAD
g = torch.manual_seed(0)
primal = torch.randn(3, 3)
tangent = torch.randn(3, 3)

def fn(x, y):
    return x ** 2 + y ** 2

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(3, 3)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(dual_output)
    print(jvp)
assert fwAD.unpack_dual(dual_output).tangent is None

import torch.nn as nn
model = nn.Linear(5, 5)
input = torch.randn(4, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
    print(out)
    print(jvp)
from torch.func import functional_call
model = nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
    print(jvp2)
assert torch.allclose(jvp, jvp2)

class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO

fn = Fn.apply
primal = torch.randn(3, 3, dtype=torch.double, requires_grad=True)
tangent = torch.randn(3, 3)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(dual_output)
    print(jvp)
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))

import torch.func as ft
primal0 = torch.randn(3, 3)
tangent0 = torch.randn(3, 3)
primal1 = torch.randn(3, 3)
tangent1 = torch.randn(3, 3)
def fn(x, y):
    return x ** 2 + y ** 2
primal_out, tangent_out = ft.jvp(fn, (primal0, primal1), (tangent0, tangent1))
print(primal_out, tangent_out)

y = torch.randn(3, 3)
new_fn = lambda x: fn(x, y=y)
primal_out, tangent_out = ft.jvp(new_fn, (primal0,), (tangent0,))
print(tangent_out)
model = nn.Linear(5, 5)
func_params = dict(model.named_parameters())
tangents = {k: torch.rand_like(v) for k, v in func_params.items()}
def func_params_only(params):
    return functional_call(model, params, (input,))
model_output, jvp_out = ft.jvp(func_params_only, (func_params,), (tangents,))
print(model_output, jvp_out)
# tangents that require grad
x = torch.randn(3, requires_grad=True)
t = torch.randn(3, requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(d)
    u = fwAD.unpack_dual(d)
    print(u.tangent)
    e = (d * 2).sin()
    print(fwAD.unpack_dual(e).tangent)
    print(fwAD.unpack_dual(d.exp()).tangent)
    f = d @ d
    print(fwAD.unpack_dual(f).tangent)
