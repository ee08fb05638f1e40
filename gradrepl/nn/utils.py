"""torch.nn.utils: clip_grad_norm_, clip_grad_value_, parameters_to_vector
(torch/nn/utils/clip_grad.py, convert_parameters.py)."""
import math

from gradrepl.nn import backend as B
from gradrepl.nn import parametrize, prune


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
            "prune": prune.namespace()}
