"""torch.nn.utils.parametrize, as torch/nn/utils/parametrize.py: a module's tensor becomes
the output of parametrization modules applied to an `original` tensor.

PyTorch injects a subclass `Parametrized<Class>` with a property for the tensor; here the
module keeps its class and Module's attribute hooks ask this file (module._parametrized
names the parametrized tensors), while _get_name prints the injected class's name.
"""
from gradrepl.nn import backend as B
from gradrepl.nn.containers import ModuleDict, ModuleList
from gradrepl.nn.module import Module, is_parameter

_CACHE = {}            # (id(module), name) -> tensor, inside `with parametrize.cached():`
_CACHE_DEPTH = [0]


def _path(name):
    return f"torch.nn.utils.parametrize.{name}"


def _set_data(original, value):
    """PyTorch's _maybe_set (original.set_(value)): the Parameter object is kept."""
    with B.TORCH["no_grad"]():
        original.data = value


class ParametrizationList(ModuleList):
    torch_path = _path("ParametrizationList")
    gradrepl_public = ModuleList.gradrepl_public | {"original", "right_inverse", "unsafe", "is_tensor",
                                                     "ntensors"}

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape = original.shape
        with B.TORCH["no_grad"]():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    new = module.right_inverse(new)
        if not B.is_tensor(new):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                             f"Got {type(new).__name__}")
        self.is_tensor = True
        self.ntensors = 1
        if original.dtype != new.dtype:
            raise ValueError("When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                             f"original.dtype: {original.dtype}\nright_inverse(original).dtype: {new.dtype}")
        _set_data(original, new)
        if is_parameter(original):
            self.register_parameter("original", original)
        else:
            self.register_buffer("original", original)
        if not self.unsafe:
            Z = self()
            if not B.is_tensor(Z):
                raise ValueError(f"A parametrization must return a tensor. Got {type(Z).__name__}.")
            if Z.dtype != original.dtype:
                raise ValueError("Registering a parametrization may not change the dtype of the tensor, unless "
                                 f"`unsafe` flag is enabled.\nunparametrized dtype: {original.dtype}\n"
                                 f"parametrized dtype: {Z.dtype}")
            if Z.shape != original_shape:
                raise ValueError("Registering a parametrization may not change the shape of the tensor, unless "
                                 f"`unsafe` flag is enabled.\nunparametrized shape: {original_shape}\n"
                                 f"parametrized shape: {Z.shape}")

    def right_inverse(self, value):
        """What assigning to the parametrized tensor runs."""
        with B.TORCH["no_grad"]():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(f"parametrization {type(module).__name__} does not implement "
                                       "right_inverse.")
                value = module.right_inverse(value)
            if not B.is_tensor(value):
                raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
            if value.dtype != self.original.dtype:
                raise ValueError(f"The tensor returned by `right_inverse` has dtype {value.dtype} while "
                                 f"`original` has dtype {self.original.dtype}")
            _set_data(self.original, value)

    def forward(self):
        x = self[0](self.original)
        for module in list(self)[1:]:
            x = module(x)
        return x


def value(module, tensor_name):
    """Reading module.<tensor_name> of a parametrized tensor."""
    parametrization = module.parametrizations[tensor_name]
    if not _CACHE_DEPTH[0]:
        return parametrization()
    key = (id(module), tensor_name)
    tensor = _CACHE.get(key)
    if tensor is None:
        tensor = _CACHE[key] = parametrization()
    return tensor


def is_parametrized(module, tensor_name=None):
    names = module.__dict__.get("_parametrized")
    if not names:
        return False
    return True if tensor_name is None else tensor_name in names


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    if not isinstance(parametrization, Module):
        raise TypeError(f"register_parametrization(): parametrization must be an nn.Module, "
                        f"not {type(parametrization).__name__}")
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            if not B.is_tensor(X):
                raise ValueError(f"A parametrization must return a tensor. Got {type(X).__name__}.")
            if X.dtype != Y.dtype:
                raise ValueError("Registering a parametrization may not change the dtype of the tensor, "
                                 "unless the `unsafe` flag is enabled.\n"
                                 f"module.{tensor_name}.dtype: {Y.dtype}\n"
                                 f"parametrization(module.{tensor_name}).dtype: {X.dtype}")
            if X.shape != Y.shape:
                raise ValueError("Registering a parametrization may not change the shape of the tensor, "
                                 "unless the `unsafe` flag is enabled.\n"
                                 f"module.{tensor_name}.shape: {Y.shape}\n"
                                 f"parametrization(module.{tensor_name}).shape: {X.shape}")
            if hasattr(parametrization, "right_inverse"):
                Z = parametrization.right_inverse(X)
                if not B.is_tensor(Z):
                    raise ValueError(f"parametrization.right_inverse must return a tensor. Got: {type(Z).__name__}")
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            module.parametrizations = ModuleDict()
            object.__setattr__(module, "_parametrized", set())
        module.__dict__["_parametrized"].add(tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized element "
                         f"with name '{tensor_name}'")
    return module


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    original = parametrizations.original
    if leave_parametrized:
        with B.TORCH["no_grad"]():
            t = getattr(module, tensor_name)
        _set_data(original, t)
    del module.parametrizations[tensor_name]
    module.__dict__["_parametrized"].discard(tensor_name)
    if is_parameter(original):
        module.register_parameter(tensor_name, original)
    else:
        module.register_buffer(tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        del module.__dict__["_parametrized"]
    return module


class cached:
    """`with parametrize.cached():` each parametrized tensor is computed once inside the block."""

    __slots__ = ()
    gradrepl_public = frozenset()

    def __enter__(self):
        _CACHE_DEPTH[0] += 1
        return None

    def __exit__(self, *exc):
        _CACHE_DEPTH[0] -= 1
        if not _CACHE_DEPTH[0]:
            _CACHE.clear()
        return False

    def __repr__(self):
        return f"<contextlib._GeneratorContextManager object at {id(self):#x}>"


def type_before_parametrizations(module):
    return type(module)


def namespace():
    return {"register_parametrization": register_parametrization,
            "remove_parametrizations": remove_parametrizations,
            "is_parametrized": is_parametrized, "cached": cached, "ParametrizationList": ParametrizationList,
            "type_before_parametrizations": type_before_parametrizations}

