"""The autograd engine. Layers, each importing only those above it:

    dtypes, util, summation, printing, rng   no tensors
    autograd    graph nodes and the backward walk (knows no Tensor class)
    tensor      Tensor state, metadata, Python protocols
    creation    torch.tensor, ones, rand, ...
    ops/        every op, declared once (ops/registry.py), installed onto Tensor
    xp          the array namespaces the derivative rules compute with
    backward    Tensor.backward, autograd.grad
    functions   grad mode, jacobian/hessian/gradcheck and the rest of torch.*
    api         what the language may show user code
"""
from gradrepl.engine import backward as _backward
from gradrepl.engine import ops as _ops  # noqa: F401 (installs the ops onto Tensor)
from gradrepl.engine.tensor import Tensor as _Tensor

_Tensor.backward = _backward.tensor_backward
