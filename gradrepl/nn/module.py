"""torch.nn.Module and torch.nn.Parameter, written as PyTorch writes them
(torch/nn/modules/module.py, torch/nn/parameter.py): the same dictionaries, the same
attribute rules, the same messages and the same printed form.

A Parameter is an engine Tensor marked as a parameter (the engine checks `type(t) is
Tensor` on every op, so a subclass would fall off its fast paths); `Parameter(...)`
builds one and `isinstance(t, Parameter)` reads the mark, as PyTorch's
`_ParameterMeta.__instancecheck__` does for its own marked tensors.

User code subclasses Module (`class Net(nn.Module)`): the language makes the user's class a
real subclass of this host class (`gradrepl_subclassable`), so everything here runs on it.
"""
from collections import OrderedDict

from gradrepl.engine import metadevice
from gradrepl.engine.devices import META
from gradrepl.nn import backend as B


class LibraryMeta(type):
    """Host classes of torch.nn / optim / utils.data: print as PyTorch's classes; a user's
    subclass prints as a class of `__main__`."""

    def __repr__(cls):
        path = cls.__dict__.get("torch_path")
        return f"<class '{path or '__main__.' + cls.__name__}'>"

    def __call__(cls, *args, **kwargs):
        # a torch.nn layer's device= goes to its factory calls in PyTorch: only the CPU exists here
        if "device" in kwargs and "torch_path" in cls.__dict__:
            B.check_device(kwargs["device"])
        return super().__call__(*args, **kwargs)


def _path(name, file):
    """The dotted name PyTorch prints for a class of torch/nn/modules/FILE.py."""
    return f"torch.nn.modules.{file}.{name}"


# ------------------------------------------------------------------ Parameter
def is_parameter(obj):
    return B.is_tensor(obj) and B.PARAMETERS.get(id(obj)) is obj


def mark_parameter(t):
    B.PARAMETERS[id(t)] = t
    return t


class ParameterMeta(LibraryMeta):
    def __call__(cls, data=None, requires_grad=True):
        if data is None:
            data = B.TORCH["empty"](0)
        if not B.is_tensor(data):
            raise TypeError(f"Parameter.__new__() got an unexpected type for data: {typename(data)}")
        t = B.share(data)
        B.set_requires_grad(t, requires_grad)
        return mark_parameter(t)

    def __instancecheck__(cls, obj):
        return is_parameter(obj)


class Parameter(metaclass=ParameterMeta):
    """torch.nn.Parameter(data=None, requires_grad=True): a leaf tensor a Module registers."""
    torch_path = "torch.nn.parameter.Parameter"


_TENSOR_NAMES = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor", "bfloat16": "BFloat16Tensor",
                 "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor",
                 "int8": "CharTensor", "uint8": "ByteTensor", "bool": "BoolTensor"}


def typename(obj):
    """torch.typename: 'torch.FloatTensor', 'int', 'torch.nn.modules.linear.Linear', ..."""
    if B.is_tensor(obj):
        return "torch." + _TENSOR_NAMES.get(str(B.array(obj).dtype), "Tensor")
    t = type(obj)
    if isinstance(t, LibraryMeta):
        return repr(t)[8:-2]
    return t.__name__


# ------------------------------------------------------------------ hooks
class Hooks:
    """An ordered set of hooks a RemovableHandle can take one out of."""

    __slots__ = ("items",)

    def __init__(self):
        self.items = []

    def add(self, hook):
        return B.RemovableHandle(self.items, hook)


class BackwardHook:
    """torch.utils.hooks.BackwardHook: a Module's full backward (pre) hooks, run from the
    BackwardHookFunction nodes put on the module's tensor inputs and outputs; the user hooks
    run once the gradients of the inputs are known (at the outputs when no input needs one)."""

    __slots__ = ("module", "user_hooks", "user_pre_hooks", "grad_outputs", "n_inputs", "input_index",
                 "n_outputs", "output_index")

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_index = self.output_index = None

    @staticmethod
    def _apply_on_tensors(on_backward, args):
        index = [i for i, a in enumerate(args) if B.is_tensor(a)]
        if not (any(args[i].requires_grad for i in index) and B.grad_enabled()):
            return args, None
        new = B.backward_hook_function(on_backward).apply(*[args[i] for i in index])
        out = list(args)
        for i, t in zip(index, new):
            out[i] = t
        return tuple(out), index

    @staticmethod
    def _pack_with_none(index, values, size):
        res = [None] * size
        for i, v in zip(index, values):
            res[i] = v
        return tuple(res)

    def setup_input_hook(self, args):
        res, self.input_index = self._apply_on_tensors(self._input_grads, args)
        self.n_inputs = len(args)
        return res

    def _input_grads(self, grads):
        if self.grad_outputs is None:
            return grads      # reached the inputs without passing the outputs (double backward)
        res = self._pack_with_none(self.input_index, grads, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                   f"got {len(out)}, but expected {len(res)}")
            res = out
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_index)

    def setup_output_hook(self, result):
        is_tuple = type(result) is tuple
        res, self.output_index = self._apply_on_tensors(self._output_grads, result if is_tuple else (result,))
        self.n_outputs = len(res)
        return res if is_tuple else res[0]

    def _output_grads(self, grads):
        self.grad_outputs = self._pack_with_none(self.output_index, grads, self.n_outputs)
        for pre_hook in self.user_pre_hooks:
            new = pre_hook(self.module, self.grad_outputs)
            if new is None:
                continue
            if len(new) != len(self.grad_outputs):
                raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(new)}, but expected {len(self.grad_outputs)}")
            self.grad_outputs = new
        local = self.grad_outputs
        if self.input_index is None:
            B.warn("UserWarning", "Full backward hook is firing when gradients are computed with respect to module "
                   "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
                   "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.")
            grad_inputs = (None,) * self.n_inputs
            for hook in self.user_hooks:
                res = hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                    raise RuntimeError("Backward hook for Modules where no input requires gradient should always "
                                       "return None or None for all gradients.")
            self.grad_outputs = None
        return tuple(local[i] for i in self.output_index)


def _addindent(s_, num_spaces):
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(num_spaces * " ") + line if line.strip() else "" for line in s]
    return first + "\n" + "\n".join(s)


class IncompatibleKeys(tuple, metaclass=LibraryMeta):
    """What load_state_dict returns: prints <All keys matched successfully> when they did."""

    torch_path = "torch.nn.modules.module._IncompatibleKeys"
    gradrepl_public = frozenset(("missing_keys", "unexpected_keys", "count", "index"))

    def __new__(cls, missing_keys, unexpected_keys):
        return super().__new__(cls, (missing_keys, unexpected_keys))

    @property
    def missing_keys(self):
        return self[0]

    @property
    def unexpected_keys(self):
        return self[1]

    def __repr__(self):
        if not self[0] and not self[1]:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self[0]!r}, unexpected_keys={self[1]!r})"

    __str__ = __repr__


# ------------------------------------------------------------------ Module
MODULE_PUBLIC = frozenset("""
forward training parameters named_parameters buffers named_buffers children named_children
modules named_modules zero_grad train eval requires_grad_ state_dict load_state_dict apply to
float double half bfloat16 cpu cuda type register_buffer register_parameter add_module register_module
get_submodule get_parameter get_buffer extra_repr register_forward_hook to_empty
register_forward_pre_hook register_full_backward_hook register_full_backward_pre_hook register_backward_hook
""".split())



_NON_FULL = "Using non-full backward hooks on a Module that does not {what} is deprecated and will be removed " \
    "in future versions. This hook will be missing some of the {grad}. Please use register_full_backward_hook " \
    "to get the documented behavior."
_NON_FULL_NODES = "Using a non-full backward hook when {what} is deprecated and will be removed in future versions. " \
    "This hook will be missing some {grad}."
_DOCUMENTED = " Please use register_full_backward_hook to get the documented behavior."


def _warn_partial_backward_hook(args, result, node):
    """PyTorch's FutureWarning for a register_backward_hook hook that sees only part of the
    module's gradients: the output is not tensors, several nodes made the outputs, or the
    hooked node is not the only one between the inputs and the output (a layer with weights)."""
    def tensors(v):
        if B.is_tensor(v):
            return (v,)
        if type(v) is tuple and all(B.is_tensor(t) for t in v):
            return v
        return None
    outs = tensors(result)
    if outs is None:
        B.warn("FutureWarning", _NON_FULL.format(what="return a single Tensor or a tuple of Tensors",
                                                 grad="grad_output"))
        return
    ins = tensors(tuple(args))
    if ins is None:
        B.warn("FutureWarning", _NON_FULL.format(what="take as input a single Tensor or a tuple of Tensors",
                                                 grad="grad_input"))
        return
    made_by = {t.grad_fn for t in outs if t.grad_fn is not None}
    if not made_by or (len(made_by) == 1 and node not in made_by):
        B.warn("FutureWarning", _NON_FULL_NODES.format(what="outputs are nested in python data structure",
                                                      grad="grad_output"))
    elif len(made_by) > 1:
        B.warn("FutureWarning", _NON_FULL_NODES.format(
            what="outputs are generated by different autograd Nodes", grad="grad_output") + _DOCUMENTED)
    elif {t.grad_fn for t in ins if t.grad_fn is not None} != {n for n, _ in node.next_functions}:
        B.warn("FutureWarning", _NON_FULL_NODES.format(
            what="the forward contains multiple autograd Nodes", grad="grad_input") + _DOCUMENTED)


class Module(metaclass=LibraryMeta):
    """torch.nn.Module: the base class of every layer and of a learner's `class Net(nn.Module)`."""

    torch_path = "torch.nn.modules.module.Module"
    gradrepl_subclassable = True
    gradrepl_public = MODULE_PUBLIC

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        setattr_ = object.__setattr__
        setattr_(self, "training", True)
        setattr_(self, "_parameters", {})
        setattr_(self, "_buffers", {})
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_forward_hooks", Hooks())
        setattr_(self, "_forward_pre_hooks", Hooks())
        setattr_(self, "_backward_hooks", Hooks())
        setattr_(self, "_backward_pre_hooks", Hooks())
        setattr_(self, "_is_full_backward_hook", None)
        setattr_(self, "_modules", {})

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # ------------------------------------------------------------ calling
    def __call__(self, *args, **kwargs):
        d = self.__dict__
        pre, post = d["_forward_pre_hooks"].items, d["_forward_hooks"].items
        backward, backward_pre = d["_backward_hooks"].items, d["_backward_pre_hooks"].items
        if not (pre or post or backward or backward_pre):
            if META:    # a meta tensor without data: its shape only
                return metadevice.module_forward(self, args, kwargs)
            return self.forward(*args, **kwargs)
        full = backward if d["_is_full_backward_hook"] else []
        for hook in tuple(pre):
            res = hook(self, args)
            if res is not None:
                args = res if isinstance(res, tuple) else (res,)
        bw_hook = None
        if full or backward_pre:
            bw_hook = BackwardHook(self, tuple(full), tuple(backward_pre))
            args = bw_hook.setup_input_hook(args)
        result = metadevice.module_forward(self, args, kwargs) if META else self.forward(*args, **kwargs)
        for hook in tuple(post):
            res = hook(self, args, result)
            if res is not None:
                result = res
        if bw_hook is not None:
            if not (B.is_tensor(result) or type(result) is tuple):
                B.warn("UserWarning", "For backward hooks to be called, module output should be a Tensor or a tuple "
                       f"of Tensors but received {type(result)}")
            result = bw_hook.setup_output_hook(result)
        if backward and not d["_is_full_backward_hook"]:
            var = result
            while not B.is_tensor(var):
                var = next(v for v in var.values() if B.is_tensor(v)) if isinstance(var, dict) else var[0]
            if var.grad_fn is not None:
                for hook in tuple(backward):
                    var.grad_fn.register_hook(lambda gi, go, hook=hook: hook(self, gi, go))
                _warn_partial_backward_hook(args, result, var.grad_fn)
        return result

    def register_full_backward_pre_hook(self, hook, prepend=False):
        return self._backward_pre_hooks.add(hook)

    def register_full_backward_hook(self, hook, prepend=False):
        return self._add_backward_hook(hook, True)

    def register_backward_hook(self, hook):
        return self._add_backward_hook(hook, False)

    def _add_backward_hook(self, hook, full):
        if self._is_full_backward_hook is (not full):
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", full)
        return self._backward_hooks.add(hook)

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        return self._forward_pre_hooks.add(hook)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        return self._forward_hooks.add(hook)

    # ------------------------------------------------------------ registration
    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if self._has(name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not B.is_tensor(tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if self._has(name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not is_parameter(param):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                             f"created explicitly. To express '{name}' as a function of another Tensor, "
                             "compute the value in the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if self._has(name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name, module):
        self.add_module(name, module)

    def _has(self, name):
        try:
            getattr(self, name)
        except AttributeError:
            return False
        return True

    def get_submodule(self, target):
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not mod._has(item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not mod._has(param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not is_parameter(param):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not mod._has(buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer

    # ------------------------------------------------------------ attributes
    def __getattr__(self, name):
        d = self.__dict__
        if "_parameters" in d:
            p = d["_parameters"]
            if name in p:
                return p[name]
        if "_buffers" in d:
            b = d["_buffers"]
            if name in b:
                return b[name]
        if "_modules" in d:
            m = d["_modules"]
            if name in m:
                return m[name]
        if name in d.get("_parametrized", ()):
            from gradrepl.nn import parametrize
            return parametrize.value(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        d = self.__dict__
        if name in d.get("_parametrized", ()):
            self.parametrizations[name].right_inverse(value)
            return
        params = d.get("_parameters")
        if is_parameter(value):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = d.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(d, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                    "(torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = d.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not B.is_tensor(value):
                        raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                        "(torch.nn.Buffer, torch.Tensor or None expected)")
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    # ------------------------------------------------------------ iteration
    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse=True):
        for _name, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda m: m._parameters.items(), prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def buffers(self, recurse=True):
        for _name, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda m: m._buffers.items(), prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def children(self):
        for _name, module in self.named_children():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self, remove_duplicate=True):
        for _name, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if id(self) not in memo:
            if remove_duplicate:
                memo.add(id(self))
            yield prefix, self
            for name, module in self._modules.items():
                if module is None:
                    continue
                submodule_prefix = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    # ------------------------------------------------------------ modes and grads
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------ conversion
    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            applied = fn(param)
            if applied is param:
                continue
            grad = param.grad
            new = Parameter(applied.detach(), param.requires_grad)
            if grad is not None:
                new.grad = fn(grad)
            self._parameters[key] = new
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in (*args, kwargs.get("device")):
            if B.is_cuda_device(a):
                raise AssertionError("Torch not compiled with CUDA enabled")
            if B.is_dtype(a):
                dtype = a
            elif B.is_tensor(a):
                dtype = a.dtype
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")
        if any(B.is_meta_device(a) for a in (*args, kwargs.get("device"))):
            return metadevice.run(self._apply, (lambda t: t.to("meta", dtype) if dtype is not None
                                                and t.is_floating_point() else t.to("meta"),), {})
        devices_named = any(isinstance(a, str) or type(a).__name__ == "Device" for a in (*args, kwargs.get("device")))
        if devices_named and any(t.is_meta for t in (*self.parameters(), *self.buffers())):
            raise NotImplementedError("Cannot copy out of meta tensor; no data! Please use torch.nn.Module.to_empty() "
                                      "instead of torch.nn.Module.to() when moving module from meta to a different "
                                      "device.")
        if dtype is None:
            return self
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def to_empty(self, *, device, recurse=True):
        """Each parameter and buffer replaced by an uninitialised tensor of its shape on `device`
        (gradrepl's are zeros): the way out of the meta device."""
        if B.is_meta_device(device):
            return metadevice.run(self._apply, (lambda t: t.to("meta"),), {})
        return self._apply(lambda t: B.TORCH["zeros"](tuple(t.shape), dtype=t.dtype, device=device))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def cpu(self):
        return self

    def cuda(self, device=None):
        for t in (*self.parameters(), *self.buffers()):     # PyTorch's _apply: at the first tensor
            return t.cuda(device)
        return self

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    # ------------------------------------------------------------ state dict
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        if destination is None:
            destination = OrderedDict()
        lazy = B.UNINITIALIZED      # a lazy module saves its uninitialized tensors as they are
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars or lazy.get(id(param)) is param else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars or lazy.get(id(buf)) is buf else buf.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, missing_keys, unexpected_keys, error_msgs):
        persistent = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in [*self._parameters.items(), *persistent.items()] if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not B.is_tensor(input_param):
                    error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                                      f'Tensor-like object from checkpoint but received {B.class_repr(input_param)}')
                    continue
                if B.UNINITIALIZED.get(id(param)) is param:     # a lazy module's parameter: materialized
                    del B.UNINITIALIZED[id(param)]              # with the checkpoint's shape (_lazy_load_hook)
                    param.data = B.TORCH["empty"](tuple(input_param.shape), dtype=param.dtype)
                if len(param.shape) == 0 and len(input_param.shape) == 1 and input_param.shape[0] == 1:
                    input_param = input_param[0]
                if input_param.shape != param.shape:
                    error_msgs.append(f"size mismatch for {key}: copying a param with shape {input_param.shape} "
                                      f"from checkpoint, the shape in current model is {param.shape}.")
                    continue
                B.copy_no_grad(param, input_param)
            else:
                missing_keys.append(key)
        for key in state_dict:
            if key.startswith(prefix):
                input_name = key[len(prefix):].split(".", 1)
                if len(input_name) > 1:
                    if input_name[0] not in self._modules:
                        unexpected_keys.append(key)
                elif input_name[0] not in local_state:
                    unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {B.class_repr(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []

        def load(module, local_state_dict, prefix=""):
            module._load_from_state_dict(local_state_dict, prefix, missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)},
                         child_prefix)

        load(self, dict(state_dict))
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return IncompatibleKeys(missing_keys, unexpected_keys)

    # ------------------------------------------------------------ printing
    def _get_name(self):
        # torch.nn.utils.parametrize makes the module's class Parametrized<Class>
        return ("Parametrized" if self.__dict__.get("_parametrized") else "") + type(self).__name__

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = _addindent(repr(module), 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"

