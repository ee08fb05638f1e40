"""The user-facing entry points of backward: Tensor.backward, torch.autograd.backward and
torch.autograd.grad (seed gradients, argument checks); the graph walk is autograd.py's."""
import numpy as np

from gradrepl.engine import xp  # noqa: F401 (hands the array namespaces to the backward engine)
from gradrepl.engine.autograd import accumulate_grad, run_backward
from gradrepl.engine.tensor import Size, Tensor, _new, wrap
from gradrepl.engine.util import pytype


def _make_grads(outputs, grads):
    out = []
    for i, t in enumerate(outputs):   # PyTorch zips outputs with grads: the shorter list ends it
        if grads is not None and i >= len(grads):
            break
        g = None if grads is None else grads[i]
        if g is None:
            if t.requires_grad:
                if t._a.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not t.dtype.is_floating_point:
                    raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {t.dtype}")
                g = _new(np.ones(t._a.shape, t._a.dtype))
            out.append(g)
            continue
        if type(g) is not Tensor:
            raise TypeError(f"gradients can be either Tensors or None, but got {pytype(g)}")
        if g._a.shape != t._a.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {Size(g._a.shape)!r} and "
                               f"output[{i}] has a shape of {Size(t._a.shape)!r}.")
        if g._a.dtype != t._a.dtype:
            g = g.to(t.dtype)
        out.append(g)
    return out


def _check_counts(outputs, grads):
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None, trace=None):
    if type(tensors) is Tensor:
        tensors = [tensors]
    tensors = list(tensors)
    if grad_tensors is not None:
        if type(grad_tensors) is Tensor:
            grad_tensors = [grad_tensors]
        grad_tensors = list(grad_tensors)
    grads = _make_grads(tensors, grad_tensors)
    _check_counts(tensors, grads)
    if retain_graph is None:
        retain_graph = create_graph
    keep = [(t, g) for t, g in zip(tensors, grads) if g is not None or not t.requires_grad]
    roots = [t for t, _ in keep]
    gs = [g for _, g in keep]
    if inputs is not None:
        if type(inputs) is Tensor:
            inputs = [inputs]
        inputs = list(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if type(t) is Tensor and not t.requires_grad:   # PyTorch retains the grad of each input
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        res = run_backward(roots, gs, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs,
                           accumulate=False, allow_unused=True)
        for t, g in zip(inputs, res):
            if g is not None:
                accumulate_grad(t, g if create_graph else g._a, create_graph, wrap)
        return
    run_backward(roots, gs, retain_graph=retain_graph, create_graph=create_graph, trace=trace)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    single_in = type(inputs) is Tensor
    outputs = [outputs] if type(outputs) is Tensor else list(outputs)
    inputs = [inputs] if single_in else list(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if grad_outputs is not None:
        grad_outputs = [grad_outputs] if type(grad_outputs) is Tensor else list(grad_outputs)
    grads = _make_grads(outputs, grad_outputs)
    _check_counts(outputs, grads)
    for i, t in enumerate(outputs):   # PyTorch's engine checks the outputs before the inputs
        if not t.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    for t in inputs:
        if type(t) is not Tensor:
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {pytype(t)}")
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    res = run_backward(outputs, grads, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs,
                       accumulate=False, allow_unused=allow_unused)
    if materialize_grads:
        res = [(_new(np.zeros_like(t._a)) if g is None else g) for t, g in zip(inputs, res)]
    return tuple(res)


def tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


tensor_backward.__name__ = "backward"
