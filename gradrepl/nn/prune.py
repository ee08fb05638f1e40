"""torch.nn.utils.prune, as torch/nn/utils/prune.py does it: pruning `name` of a module moves
the parameter to `name_orig`, adds the buffer `name_mask`, sets the plain attribute `name` to
`mask * name_orig` and registers the pruning method as a forward pre-hook that recomputes it.
Pruning the same tensor again combines the methods in a PruningContainer; `remove` makes the
pruning permanent."""
import numbers

from gradrepl.nn import backend as B
from gradrepl.nn.module import LibraryMeta


def _path(name):
    return f"torch.nn.utils.prune.{name}"


def _validate_amount_init(amount):
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (isinstance(amount, numbers.Integral) and amount < 0) or (
            not isinstance(amount, numbers.Integral) and (float(amount) > 1.0 or float(amount) < 0.0)):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a non-negative integer")


def _validate_amount(amount, tensor_size):
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters to prune={tensor_size}")


def _validate_structured(t):
    if len(t.shape) <= 1:
        raise ValueError(f"Structured pruning can only be applied to multidimensional tensors. Found tensor of "
                         f"shape {t.shape} with {len(t.shape)} dims")


def _nparams_toprune(amount, tensor_size):
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


class BasePruningMethod(metaclass=LibraryMeta):
    """A pruning method: compute_mask(t, default_mask) says which entries stay (1)."""

    torch_path = _path("BasePruningMethod")
    gradrepl_subclassable = True      # the tutorial's custom method: `class FooBar(prune.BasePruningMethod)`
    gradrepl_public = frozenset(("PRUNING_TYPE", "compute_mask", "apply_mask", "prune", "remove"))
    gradrepl_class_public = ("apply",)
    PRUNING_TYPE = None
    _tensor_name = None

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    def compute_mask(self, t, default_mask):
        raise NotImplementedError

    def apply_mask(self, module):
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        old_method = None
        hooks = module._forward_pre_hooks.items
        for hook in list(hooks):
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                old_method = hook
                hooks.remove(hook)
        method = cls(*args, **kwargs)
        method._tensor_name = name
        if old_method is not None:
            if isinstance(old_method, PruningContainer):
                old_method.add_pruning_method(method)
                method = old_method
            else:
                container = PruningContainer(old_method)
                container.add_pruning_method(method)
                method = container
        orig = getattr(module, name)
        if importance_scores is not None:
            if importance_scores.shape != orig.shape:
                raise AssertionError(f"importance_scores should have the same shape as parameter {name} of "
                                     f"{module}")
        else:
            importance_scores = orig
        if not isinstance(method, PruningContainer):
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = B.TORCH["ones_like"](orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        with B.TORCH["no_grad"]():
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
        module.register_buffer(name + "_mask", mask)
        setattr(module, name, method.apply_mask(module))
        module.register_forward_pre_hook(method)
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        if importance_scores is not None and importance_scores.shape != t.shape:
            raise AssertionError("importance_scores should have the same shape as tensor t")
        scores = importance_scores if importance_scores is not None else t
        default_mask = default_mask if default_mask is not None else B.TORCH["ones_like"](t)
        return t * self.compute_mask(scores, default_mask=default_mask)

    def remove(self, module):
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be removed")
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)

    def __repr__(self):
        return f"<{type(self).torch_path} object at {id(self):#x}>"


class PruningContainer(BasePruningMethod):
    """The pruning methods applied, in turn, to one tensor."""

    torch_path = _path("PruningContainer")

    def __init__(self, *args):
        self._pruning_methods = ()
        if len(args) == 1 and not isinstance(args[0], tuple):
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        elif len(args) == 1 and isinstance(args[0], tuple):
            for method in args[0]:
                self.add_pruning_method(method)
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method):
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found '{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        if method.PRUNING_TYPE == "unstructured":
            slc = default_mask == 1
        elif method.PRUNING_TYPE == "structured":
            if not hasattr(method, "dim"):
                raise AttributeError("Pruning methods of PRUNING_TYPE 'structured' need to have the attribute "
                                     "`dim` defined.")
            n_dims = t.dim()
            dim = method.dim + n_dims if method.dim < 0 else method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor of dimension {n_dims}")
            keep = default_mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
            slc = tuple([slice(None)] * dim + [keep])
        elif method.PRUNING_TYPE == "global":
            slc = tuple([slice(None)] * len(t.shape))
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
        partial = method.compute_mask(t[slc], default_mask=default_mask[slc])
        new_mask[slc] = partial.to(dtype=new_mask.dtype)
        return new_mask


class Identity(BasePruningMethod):
    torch_path = _path("Identity")
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


def _unstructured_mask(amount, t, default_mask, scores, largest):
    """default_mask with the k = amount entries of t whose scores rank first zeroed."""
    size = t.nelement()
    k = _nparams_toprune(amount, size)
    _validate_amount(k, size)
    mask = default_mask.clone()
    if k != 0:
        mask.view(-1)[B.TORCH["topk"](scores().view(-1), k=k, largest=largest).indices] = 0
    return mask


class RandomUnstructured(BasePruningMethod):
    torch_path = _path("RandomUnstructured")
    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _validate_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        return _unstructured_mask(self.amount, t, default_mask, lambda: B.TORCH["rand_like"](t), True)

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    torch_path = _path("L1Unstructured")
    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _validate_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        return _unstructured_mask(self.amount, t, default_mask, t.abs, False)

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


def _channel_mask(t, dim, keep):
    mask = B.TORCH["zeros_like"](t)
    mask[tuple([slice(None)] * dim + [keep])] = 1
    return mask


class RandomStructured(BasePruningMethod):
    torch_path = _path("RandomStructured")
    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1):
        _validate_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _validate_structured(t)
        size = t.shape[self.dim]
        k = _nparams_toprune(self.amount, size)
        _validate_amount(k, size)
        if k == 0:
            return default_mask
        prob = B.TORCH["rand"](size)
        threshold = B.TORCH["kthvalue"](prob, k=k).values
        dim = self.dim + t.dim() if self.dim < 0 else self.dim
        return _channel_mask(t, dim, prob > threshold) * default_mask.to(dtype=t.dtype)

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    torch_path = _path("LnStructured")
    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1):
        _validate_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _validate_structured(t)
        size = t.shape[self.dim]
        k = _nparams_toprune(self.amount, size)
        _validate_amount(k, size)
        dims = list(range(t.dim()))
        dim = self.dim + t.dim() if self.dim < 0 else self.dim
        dims.remove(dim)
        norm = B.TORCH["norm"](t, p=self.n, dim=dims)
        if k == 0:
            return default_mask
        top = B.TORCH["topk"](norm, k=size - k, largest=True)
        mask = _channel_mask(t, dim, top.indices)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    torch_path = _path("CustomFromMask")
    PRUNING_TYPE = "global"

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError("default_mask and mask must have the same shape")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


def identity(module, name):
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    if not isinstance(parameters, (list, tuple)) and type(parameters).__name__ != "generator":
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    parameters = list(parameters)
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    cat = B.TORCH["cat"]
    scores = cat([importance_scores.get((module, name), getattr(module, name)).reshape(-1)
                  for module, name in parameters])
    default_mask = cat([getattr(module, name + "_mask", None).reshape(-1) if hasattr(module, name + "_mask")
                        else B.TORCH["ones_like"](getattr(module, name)).reshape(-1) for module, name in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
                        f"{pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    with B.TORCH["no_grad"]():
        final_mask = container.compute_mask(scores, default_mask)
    pointer = 0
    for module, name in parameters:
        param = getattr(module, name)
        count = param.numel()
        custom_from_mask(module, name, mask=final_mask[pointer:pointer + count].view_as(param))
        pointer += count


def remove(module, name):
    hooks = module._forward_pre_hooks.items
    for hook in list(hooks):
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            hooks.remove(hook)
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed")


def is_pruned(module):
    for _, submodule in module.named_modules():
        for hook in submodule._forward_pre_hooks.items:
            if isinstance(hook, BasePruningMethod):
                return True
    return False


def namespace():
    return {"BasePruningMethod": BasePruningMethod, "PruningContainer": PruningContainer, "Identity": Identity,
            "RandomUnstructured": RandomUnstructured, "L1Unstructured": L1Unstructured,
            "RandomStructured": RandomStructured, "LnStructured": LnStructured, "CustomFromMask": CustomFromMask,
            "identity": identity, "random_unstructured": random_unstructured, "l1_unstructured": l1_unstructured,
            "random_structured": random_structured, "ln_structured": ln_structured,
            "global_unstructured": global_unstructured, "custom_from_mask": custom_from_mask, "remove": remove,
            "is_pruned": is_pruned}

