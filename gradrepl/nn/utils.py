"""torch.nn.utils: clip_grad_norm_, clip_grad_value_, parameters_to_vector,
vector_to_parameters, the eval-mode fusions of a convolution or linear layer with the batch
norm after it, skip_init (torch/nn/utils/clip_grad.py, convert_parameters.py, fusion.py,
init.py)."""
import copy
import math

from gradrepl.nn import backend as B
from gradrepl.nn import parametrize, prune
from gradrepl.nn.module import Parameter, typename


def _tensors(parameters):
    return [parameters] if B.is_tensor(parameters) else list(parameters)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    tensors = _tensors(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return B.TORCH["tensor"](0.0)
    with B.TORCH["no_grad"]():
        norms = [t.norm(norm_type) for t in tensors]
        total = B.TORCH["stack"](norms).norm(norm_type)
    if error_if_nonfinite and not math.isfinite(total.item()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                           "so it cannot be clipped. To disable this error and scale the gradients by the "
                           "non-finite norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    grads = [p.grad for p in _tensors(parameters) if p.grad is not None]
    if not grads:
        return
    with B.TORCH["no_grad"]():
        coef = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    parameters = _tensors(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    clip_value = float(clip_value)
    with B.TORCH["no_grad"]():
        for p in _tensors(parameters):
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters):
    return B.TORCH["cat"]([p.view(-1) for p in parameters])


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    B.warn("FutureWarning", "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
           "`torch.nn.utils.clip_grad_norm_`.")
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def vector_to_parameters(vec, parameters):
    """Each parameter's data replaced by its slice of vec, in order (the inverse of
    parameters_to_vector)."""
    if not B.is_tensor(vec):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    at = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[at:at + n].view_as(p).data
        at += n


def _bn_scale(bn_rv, bn_eps, bn_w):
    return bn_w * B.TORCH["rsqrt"](bn_rv + bn_eps)


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """The weight and bias of one convolution that computes conv then batch norm (eval mode)."""
    zeros_like, ones_like = B.TORCH["zeros_like"], B.TORCH["ones_like"]
    w_dtype = conv_w.dtype
    b_dtype = conv_b.dtype if conv_b is not None else w_dtype
    conv_b = zeros_like(bn_rm) if conv_b is None else conv_b
    bn_w = ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = zeros_like(bn_rm) if bn_b is None else bn_b
    rsqrt = B.TORCH["rsqrt"](bn_rv + bn_eps)
    rest = [1] * (conv_w.dim() - 2)
    shape = [1, -1, *rest] if transpose else [-1, 1, *rest]
    fused_w = (conv_w * (bn_w * rsqrt).reshape(shape)).to(dtype=w_dtype)
    fused_b = ((conv_b - bn_rm) * rsqrt * bn_w + bn_b).to(dtype=b_dtype)
    return Parameter(fused_w, conv_w.requires_grad), Parameter(fused_b, conv_b.requires_grad)


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The weight and bias of one linear layer that computes linear then batch norm (eval mode)."""
    linear_b = B.TORCH["zeros_like"](bn_rm) if linear_b is None else linear_b
    scale = _bn_scale(bn_rv, bn_eps, bn_w)
    fused_w = linear_w * scale.unsqueeze(-1)
    fused_b = (linear_b - bn_rm) * scale + bn_b
    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, linear_b.requires_grad)


def _copy_module(module):
    """A copy of a layer without submodules: its own tables of parameters and buffers (the
    tensors shared until replaced), drawing no random numbers."""
    new = copy.copy(module)
    for table in ("_parameters", "_buffers", "_modules"):
        if table in module.__dict__:
            new.__dict__[table] = dict(module.__dict__[table])
    return new


def fuse_conv_bn_eval(conv, bn, transpose=False):
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = _copy_module(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError()
    fused.weight, fused.bias = fuse_conv_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps,
                                                    bn.weight, bn.bias, transpose)
    return fused


def fuse_linear_bn_eval(linear, bn):
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused = _copy_module(linear)
    if not (linear.out_features == bn.num_features or bn.num_features == 1):
        raise AssertionError("To fuse, linear.out_features must equal bn.num_features or bn.num_features must be 1")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError()
    fused.weight, fused.bias = fuse_linear_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                      bn.eps, bn.weight, bn.bias)
    return fused


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True,
                    strict=False):
    """torch.func.functional_call: module(*args, **kwargs) with some parameters and buffers
    (by dotted name) replaced by the given tensors for this one call."""
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, dict):
        dicts = (dicts,)
    elif not all(isinstance(d, dict) for d in dicts):
        raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
    keys = [k for d in dicts for k in d]
    repeated = [k for k in dict.fromkeys(keys) if keys.count(k) > 1]
    if repeated:
        raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
    swaps = {k: v for d in dicts for k, v in d.items()}
    if strict:
        known = {n for n, _ in module.named_parameters()} | {n for n, _ in module.named_buffers()}
        missing, unexpected = sorted(known - set(swaps)), sorted(set(swaps) - known)
        if missing or unexpected:
            raise RuntimeError(f"Error(s) in reparametrizing for {module._get_name()}:\n\t"
                               + ("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected) + "."
                                  if unexpected else "Missing key(s): " + ", ".join(repr(k) for k in missing) + "."))
    saved = []
    try:
        for name, value in swaps.items():
            *path, leaf = name.split(".")
            owner = module.get_submodule(".".join(path)) if path else module
            table = owner._buffers if leaf in owner._buffers else owner._parameters
            saved.append((table, leaf, table.get(leaf, _ABSENT)))
            table[leaf] = value
        if args is None:
            args = ()
        elif not isinstance(args, tuple):
            args = (args,)
        return module(*args, **(kwargs or {}))
    finally:
        for table, leaf, old in reversed(saved):
            if old is _ABSENT:
                del table[leaf]
            else:
                table[leaf] = old


_ABSENT = object()


def stack_module_state(models):
    """torch.func.stack_module_state: each parameter and buffer of the same-class models,
    stacked along a new first dimension (new leaves), by name."""
    models = list(models)
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(tensors, name):
        grads = [t.requires_grad for t in tensors]
        if any(grads) and not all(grads):
            raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        out = B.TORCH["stack"](tensors)
        return out.detach().requires_grad_() if all(grads) else out

    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    return ({k: stacked([p[k] for p in all_params], k) for k in all_params[0]},
            {k: stacked([b[k] for b in all_buffers], k) for k in all_buffers[0]})


def namespace():
    return {"clip_grad_norm_": clip_grad_norm_, "clip_grad_value_": clip_grad_value_,
            "get_total_norm": get_total_norm, "clip_grads_with_norm_": clip_grads_with_norm_,
            "parameters_to_vector": parameters_to_vector, "parametrize": parametrize.namespace(),
            "clip_grad_norm": clip_grad_norm, "vector_to_parameters": vector_to_parameters,
            "fuse_conv_bn_weights": fuse_conv_bn_weights, "fuse_conv_bn_eval": fuse_conv_bn_eval,
            "fuse_linear_bn_weights": fuse_linear_bn_weights, "fuse_linear_bn_eval": fuse_linear_bn_eval,
            "prune": prune.namespace()}
