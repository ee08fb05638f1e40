"""torch.nn.utils.prune, as torch/nn/utils/prune.py: a module's tensor `name` becomes
`name_orig` (a parameter) times `name_mask` (a buffer), recomputed by a forward pre-hook
that is the pruning method itself; pruning a pruned tensor again combines the masks in a
PruningContainer. The masks come from the same calls PyTorch makes (rand_like, topk,
norm), so the same seed prunes the same entries.
"""
import numbers

from gradrepl.nn import backend as B
from gradrepl.nn.module import LibraryMeta


def _path(name):
    return f"torch.nn.utils.prune.{name}"


def _T(name):
    return B.TORCH[name]


def _validate_amount_init(amount):
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (isinstance(amount, numbers.Integral) and amount < 0) or (
            not isinstance(amount, numbers.Integral) and (float(amount) > 1.0 or float(amount) < 0.0)):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a non-negative integer")


def _validate_amount(amount, tensor_size):
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters to prune={tensor_size}")


def _nparams_toprune(amount, tensor_size):
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


def _validate_structured(t):
    if len(t.shape) <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. Found tensor of "
                         f"shape {t.shape} with {len(t.shape)} dims")


def _validate_dim(t, dim):
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _hooks(module):
    return module.__dict__["_forward_pre_hooks"].items


class BasePruningMethod(metaclass=LibraryMeta):
    """The pruning methods' base: a method is also the forward pre-hook that recomputes the tensor."""

    torch_path = _path("BasePruningMethod")
    gradrepl_public = frozenset(("compute_mask", "apply_mask", "prune", "remove", "PRUNING_TYPE"))
    PRUNING_TYPE = None

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    def __repr__(self):
        return f"<{repr(type(self))[8:-2]} object at {id(self):#x}>"

    def apply_mask(self, module):
        orig = getattr(module, self._tensor_name + "_orig")
        mask = getattr(module, self._tensor_name + "_mask")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        old_method = None
        found = 0
        hooks = _hooks(module)
        for hook in list(hooks):
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                old_method = hook
                hooks.remove(hook)
                found += 1
        if found > 1:
            raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} of module "
                                 f"{module}. Use a PruningContainer.")
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
        if importance_scores is not None and importance_scores.shape != orig.shape:
            raise AssertionError(f"importance_scores should have the same shape as parameter {name} of {module}")
        if not isinstance(method, PruningContainer):
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = _T("ones_like")(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        with _T("no_grad")():
            mask = method.compute_mask(importance_scores if importance_scores is not None else orig,
                                       default_mask=default_mask)
        module.register_buffer(name + "_mask", mask)
        setattr(module, name, method.apply_mask(module))
        module.register_forward_pre_hook(method)
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        if importance_scores is not None and importance_scores.shape != t.shape:
            raise AssertionError("importance_scores should have the same shape as tensor t")
        default_mask = default_mask if default_mask is not None else _T("ones_like")(t)
        return t * self.compute_mask(importance_scores if importance_scores is not None else t,
                                     default_mask=default_mask)

    def remove(self, module):
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


class PruningContainer(BasePruningMethod):
    """The pruning history of one tensor; its mask combines each method's on what is left."""

    torch_path = _path("PruningContainer")
    gradrepl_public = BasePruningMethod.gradrepl_public | {"add_pruning_method"}

    def __init__(self, *args):
        self._pruning_methods = ()
        if len(args) == 1 and not isinstance(args[0], (list, tuple)):
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        elif len(args) == 1:
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
            dim = method.dim if method.dim >= 0 else n_dims + method.dim
            keep = default_mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
            slc = tuple([keep if d == dim else slice(None) for d in range(n_dims)])
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


class RandomUnstructured(BasePruningMethod):
    torch_path = _path("RandomUnstructured")
    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _validate_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        tensor_size = t.nelement()
        k = _nparams_toprune(self.amount, tensor_size)
        _validate_amount(k, tensor_size)
        mask = default_mask.clone()
        if k != 0:
            prob = _T("rand_like")(t)
            topk = _T("topk")(prob.view(-1), k=k)
            mask.view(-1)[topk.indices] = 0
        return mask

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
        tensor_size = t.nelement()
        k = _nparams_toprune(self.amount, tensor_size)
        _validate_amount(k, tensor_size)
        mask = default_mask.clone()
        if k != 0:
            topk = _T("topk")(_T("abs")(t).view(-1), k=k, largest=False)
            mask.view(-1)[topk.indices] = 0
        return mask

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


def _structured_mask(t, dim, indices):
    mask = _T("zeros_like")(t)
    mask[tuple([indices if d == dim else slice(None) for d in range(len(t.shape))])] = 1
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
        _validate_dim(t, self.dim)
        tensor_size = t.shape[self.dim]
        k = _nparams_toprune(self.amount, tensor_size)
        _validate_amount(k, tensor_size)
        if k == 0:
            return default_mask
        prob = _T("rand")(tensor_size)
        threshold = _T("kthvalue")(prob, k=k).values
        channel_mask = prob > threshold
        mask = _structured_mask(t, self.dim, channel_mask)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

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
        _validate_dim(t, self.dim)
        tensor_size = t.shape[self.dim]
        k = _nparams_toprune(self.amount, tensor_size)
        _validate_amount(k, tensor_size)
        dims = list(range(t.dim()))
        dim = self.dim if self.dim >= 0 else dims[self.dim]
        dims.remove(dim)
        norm = _T("norm")(t, p=self.n, dim=dims)
        topk = _T("topk")(norm, k=tensor_size - k, largest=True)
        if k == 0:
            return default_mask
        mask = _structured_mask(t, self.dim, topk.indices)
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
            raise AssertionError("default_mask and mask should have the same shape")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


for _cls in (BasePruningMethod, PruningContainer, Identity, RandomUnstructured, L1Unstructured, RandomStructured,
             LnStructured, CustomFromMask):
    _cls.gradrepl_class_public = frozenset(("apply", "PRUNING_TYPE"))   # what user code may read on the class


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
    if not isinstance(parameters, (list, tuple)):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    scores = _T("cat")([importance_scores.get((m, n), getattr(m, n)).reshape(-1) for m, n in parameters])
    default_mask = _T("cat")([getattr(m, n + "_mask", _T("ones_like")(getattr(m, n))).reshape(-1)
                              for m, n in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
                        f"{pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    with _T("no_grad")():
        final_mask = container.compute_mask(scores, default_mask)
    pointer = 0
    for module, name in parameters:
        param = getattr(module, name)
        num = param.numel()
        custom_from_mask(module, name, mask=final_mask[pointer:pointer + num].view_as(param))
        pointer += num


def remove(module, name):
    for hook in list(_hooks(module)):
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            _hooks(module).remove(hook)
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed")


def is_pruned(module):
    for _, submodule in module.named_modules():
        for hook in _hooks(submodule):
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
