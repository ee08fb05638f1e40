"""The meta device: tensors that have a shape, a dtype and autograd state but no data.

A meta tensor is an ordinary Tensor backed by zeros (past devices.DATALESS elements by no
data at all: see `dataless_call` below) and listed in devices.META. Every op
runs on those zeros in *meta mode* (`run`): the tensors created meanwhile are meta too
and the random generator is put back afterwards (PyTorch's meta kernels draw nothing).
Meta mode starts where an op gets a meta tensor: the interpreter's call (`needs` below:
a meta argument, `device="meta"`, a default device of meta, a module with meta
parameters) and Tensor's operators (installed on first use, `install_operators`).
Reading values (`item`, `tolist`, printing digits) raises PyTorch's errors.
"""
import numpy as np

from gradrepl.engine import devices, rng
from gradrepl.engine.devices import META, MODE, NO_DATA, NO_ITEM, NO_NUMPY, is_meta  # noqa: F401 (NO_*: callers)
from gradrepl.engine.autograd import GRAD, Node, edge_of
from gradrepl.engine.ops.registry import REGISTRY, Rule
from gradrepl.engine.tensor import Tensor, _new


_INSTALLED = [False]


def run(fn, args, kwargs):
    """fn(*args, **kwargs) in meta mode."""
    if not _INSTALLED[0]:
        install_operators()
    if MODE[0]:
        return _call(fn, args, kwargs)
    state = rng.default_generator.get_state()
    MODE[0] = 1
    try:
        return _call(fn, args, kwargs)
    finally:
        MODE[0] = 0
        rng.default_generator.set_state(state)


def _call(fn, args, kwargs):
    """fn(*args, **kwargs) in meta mode, by its shape rule when a tensor argument has no data."""
    if META and fn is not dataless_call:
        owner, plain = _owner(fn)
        if any(devices.dataless(t) for t in _tensors(args, kwargs)) or \
                (type(owner) is Tensor and devices.dataless(owner)):
            res = dataless_call(plain, (owner, *args) if type(owner) is Tensor else args, kwargs)
            if res is not NotImplemented:
                return res
    return fn(*args, **kwargs)


def _tensors(args, kwargs):
    for a in args:
        if type(a) is Tensor:
            yield a
        elif type(a) in (list, tuple):
            for b in a:
                if type(b) is Tensor:
                    yield b
    if kwargs:
        for a in kwargs.values():
            if type(a) is Tensor:
                yield a


def check_devices(tensors):
    """PyTorch's refusal to mix a meta tensor with a CPU one (a 0-dim CPU tensor is a scalar)."""
    first = None
    for t in tensors:
        m = is_meta(t)
        if first is None:
            first = m
        elif m != first and (m or t._a.ndim):
            raise RuntimeError(f"Tensor on device {'meta' if m else 'cpu'} is not on the expected device "
                               f"{'meta' if first else 'cpu'}!")


def _module_is_meta(fn):
    params = getattr(fn, "_parameters", None)
    if type(params) is not dict and params.__class__.__name__ != "OrderedDict":
        return False
    try:
        return any(is_meta(p) for p in fn.parameters())
    except Exception:   # noqa: BLE001 - not a module after all
        return False


def _owner(fn):
    """(the tensor a method is bound to or None, the plain function)."""
    owner = getattr(fn, "__self__", None)
    if type(owner) is Tensor:
        return owner, getattr(fn, "__func__", fn)
    if owner is None and "method" in (type(fn).__name__, type(fn).__base__.__name__):   # lang.classes.method
        obj = getattr(fn, "obj", None)
        if type(obj) is Tensor:
            return obj, getattr(fn, "fn", fn)
    return None, fn


def needs(fn, args, kwargs):
    """Does the interpreter's call fn(*args, **kwargs) run in meta mode? Raises PyTorch's
    error for an op mixing meta and CPU tensors."""
    if kwargs and "device" in kwargs:
        d = kwargs["device"]
        if (type(d) is str and d.partition(":")[0] == "meta") or (type(d) is devices.Device and d.type == "meta"):
            return True
    active = devices.ACTIVE[0]
    if active is not None and active.type == "meta":
        return True
    if not META:
        return False
    owner = getattr(fn, "__self__", None)
    if owner is None and "method" in (type(fn).__name__, type(fn).__base__.__name__):   # lang.classes.method
        owner = getattr(fn, "obj", None)
        fn = getattr(fn, "fn", fn)
    if type(owner) is Tensor:
        tensors = [owner, *_tensors(args, kwargs)]
    else:
        tensors = list(_tensors(args, kwargs))
    hit = any(is_meta(t) for t in tensors)
    module = getattr(fn, "__module__", None) or ""
    if module.startswith("gradrepl.engine") or type(owner) is Tensor:
        if hit:
            check_devices(tensors)
        return hit
    if hit:
        return True
    if _module_is_meta(fn):
        check_devices(tensors[:1] + [next(p for p in fn.parameters() if is_meta(p))] if tensors else [])
        return True
    return False


# ---------------------------------------------------------------- Tensor's operators
_OPERATORS = ("__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__", "__rmul__", "__imul__",
              "__truediv__", "__rtruediv__", "__itruediv__", "__floordiv__", "__rfloordiv__", "__ifloordiv__",
              "__mod__", "__rmod__", "__imod__", "__pow__", "__rpow__", "__ipow__", "__matmul__", "__rmatmul__",
              "__imatmul__", "__and__", "__rand__", "__iand__", "__or__", "__ror__", "__ior__", "__xor__",
              "__rxor__", "__ixor__", "__lshift__", "__rlshift__", "__ilshift__", "__rshift__", "__rrshift__",
              "__irshift__", "__neg__", "__pos__", "__abs__", "__invert__", "__lt__", "__le__", "__gt__", "__ge__",
              "__eq__", "__ne__", "__getitem__", "__setitem__")


def _operator(f, name):
    def op(self, *args):
        if META and (is_meta(self) or any(type(a) is Tensor and is_meta(a) for a in args)):
            check_devices([self, *[a for a in args if type(a) is Tensor]])
            if devices.dataless(self) or any(type(a) is Tensor and devices.dataless(a) for a in args):
                res = run(dataless_call, (f, (self, *args), {}, name), {})
                if res is not NotImplemented:
                    return res
            return run(f, (self, *args), {})
        return f(self, *args)
    op.__name__ = f.__name__
    op.__wrapped__ = f
    return op


def _attribute(prop):
    def get(self):
        if META and is_meta(self):
            return run(prop.fget, (self,), {})
        return prop.fget(self)
    return property(get)


def install_operators():
    """Tensor's operators and attribute ops (`x.T`) learn meta mode, once a meta tensor exists
    (before that they cost nothing extra)."""
    _INSTALLED[0] = True
    for name in _OPERATORS:
        f = Tensor.__dict__.get(name)
        if f is not None and callable(f):
            setattr(Tensor, name, _operator(f, name))
    for op in REGISTRY.values():
        if op.attribute:
            for name in op.methods:
                prop = Tensor.__dict__.get(name)
                if isinstance(prop, property):
                    setattr(Tensor, name, _attribute(prop))


def to_meta(t, result, rule):
    """`x.to("meta")` of a CPU tensor: a meta copy (ToCopyBackward0 when x needs a gradient)."""
    return run(lambda: result(np.zeros_like(t._a), rule, (t,) if t.dtype.is_floating_point else (), (), t.dtype),
               (), {})


# ---------------------------------------------------------------- meta tensors without data
# An op on a tensor of devices.blank (no data) computes its result's shape, never values:
# the kernels that would read the whole input (convolution, matrix products) ask `shaped`
# for the result; the interpreter's calls of elementwise ops, reductions and pools go
# through `dataless_call`, which learns the result's dtype and backward node from the same
# call on small stand-ins and gives each result the shape its rule computes.
_META_RULES = {}


def _meta_rule(name, n_inputs):
    """A backward node named as PyTorch's, for a result without data: its gradients are
    meta tensors of the inputs' shapes."""
    key = (name, n_inputs)
    spec = _META_RULES.get(key)
    if spec is None:
        def backward(grad, xp, shapes):
            return tuple(None if s is None else devices.blank(s[0], s[1]) for s in shapes)
        spec = Rule(name, tuple(f"input{i}" for i in range(n_inputs)), ("",) * n_inputs, (), ("shapes",), backward,
                    False, False, "meta " + name)
        _META_RULES[key] = spec
    return spec


def _record(out, name, inputs):
    if not GRAD[0] or not out.dtype.is_floating_point:
        return out
    edges = tuple(None if t is None else edge_of(t) for t in inputs)
    if any(e is not None for e in edges):
        shapes = tuple(None if t is None else (t._a.shape, t._a.dtype) for t in inputs)
        out._fn = Node(_meta_rule(name, len(inputs)), edges, (), shapes)
    return out


def shaped(shape, np_dtype, name, inputs):
    """A meta result of `shape` (no data when large), recording backward node `name` when an
    input needs a gradient."""
    t = _new(devices.blank(shape, np_dtype))
    devices.mark_meta(t)
    return _record(t, name, inputs)


def any_dataless(*tensors):
    return bool(META) and any(type(t) is Tensor and devices.dataless(t) for t in tensors)


_SAME_AS_SELF = frozenset(("to", "float", "double", "half", "bfloat16", "long", "int", "short", "char", "byte", "bool",
                           "type_as", "type", "cpu", "clone", "contiguous", "detach", "requires_grad_", "cumsum",
                           "cumprod", "logcumsumexp", "cummax", "cummin", "softmax", "log_softmax", "dropout",
                           "alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d", "dropout3d",
                           "softmin", "normalize", "batch_norm", "instance_norm"))
_ELEMENTWISE_EXTRA = ("add", "sub", "rsub", "radd", "rmul", "rtruediv", "truediv", "rpow", "rfloordiv", "floordiv",
                      "mod", "rmod", "addcmul", "addcdiv", "relu_", "gelu", "elu", "selu", "celu", "silu", "mish",
                      "softplus", "hardtanh", "relu6", "hardsigmoid", "hardswish", "logsigmoid", "leaky_relu",
                      "softsign", "tanhshrink", "hardshrink", "softshrink", "prelu", "rrelu", "threshold", "and",
                      "or", "xor", "invert", "lshift", "rshift", "rand", "ror", "rxor", "pos", "lerp")
_REDUCTIONS = frozenset(("sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "all", "any", "std",
                         "var", "logsumexp", "nansum", "nanmean", "count_nonzero", "median", "nanmedian", "mode",
                         "aminmax", "std_mean", "var_mean", "norm"))
_PRODUCTS = frozenset(("matmul", "rmatmul", "mm", "bmm", "mv", "dot", "linear", "addmm", "inner", "vdot"))
_POOLS = {"max_pool1d": (1, "max"), "max_pool2d": (2, "max"), "max_pool3d": (3, "max"),
          "max_pool1d_with_indices": (1, "max"), "max_pool2d_with_indices": (2, "max"),
          "max_pool3d_with_indices": (3, "max"), "avg_pool1d": (1, "avg"), "avg_pool2d": (2, "avg"),
          "avg_pool3d": (3, "avg"), "adaptive_avg_pool1d": (1, "adaptive"), "adaptive_avg_pool2d": (2, "adaptive"),
          "adaptive_avg_pool3d": (3, "adaptive"), "adaptive_max_pool1d": (1, "adaptive"),
          "adaptive_max_pool2d": (2, "adaptive"), "adaptive_max_pool3d": (3, "adaptive")}
# the modules whose forward is one of those calls
_MODULES = {"Linear": "linear", "ReLU": "relu", "ReLU6": "relu6", "Sigmoid": "sigmoid", "Tanh": "tanh",
            "GELU": "gelu", "SiLU": "silu", "ELU": "elu", "SELU": "selu", "CELU": "celu", "Mish": "mish",
            "Softplus": "softplus", "Hardtanh": "hardtanh",
            "Hardsigmoid": "hardsigmoid", "Hardswish": "hardswish", "LogSigmoid": "logsigmoid",
            "LeakyReLU": "leaky_relu", "Softsign": "softsign", "Tanhshrink": "tanhshrink", "Hardshrink": "hardshrink",
            "Softshrink": "softshrink", "PReLU": "prelu", "Threshold": "threshold", "Dropout": "dropout",
            "Dropout1d": "dropout", "Dropout2d": "dropout", "Dropout3d": "dropout", "AlphaDropout": "dropout",
            "Softmax": "softmax", "LogSoftmax": "log_softmax", "Softmin": "softmin", "BatchNorm1d": "batch_norm",
            "BatchNorm2d": "batch_norm", "BatchNorm3d": "batch_norm",
            "MaxPool1d": "max_pool1d", "MaxPool2d": "max_pool2d", "MaxPool3d": "max_pool3d",
            "AvgPool1d": "avg_pool1d", "AvgPool2d": "avg_pool2d", "AvgPool3d": "avg_pool3d",
            "AdaptiveAvgPool1d": "adaptive_avg_pool1d", "AdaptiveAvgPool2d": "adaptive_avg_pool2d",
            "AdaptiveAvgPool3d": "adaptive_avg_pool3d", "AdaptiveMaxPool1d": "adaptive_max_pool1d",
            "AdaptiveMaxPool2d": "adaptive_max_pool2d", "AdaptiveMaxPool3d": "adaptive_max_pool3d"}
_POOL_PARAMS = {"max": ("kernel_size", "stride", "padding", "dilation", "ceil_mode"),
                "avg": ("kernel_size", "stride", "padding", "ceil_mode"), "adaptive": ("output_size",)}
_ELEMENTWISE = []


def _elementwise():
    if not _ELEMENTWISE:
        names = {n for op in REGISTRY.values() if op.kind in ("elementwise", "special")
                 for n in (op.name, *op.methods, *op.functions)}
        _ELEMENTWISE.append(frozenset(names) | frozenset(_ELEMENTWISE_EXTRA))
    return _ELEMENTWISE[0]


def _category(name):
    name = name.strip("_") if name.startswith("__") else name
    if name.endswith("_") and name[:-1] in _elementwise():
        name = name[:-1]
    if name in _POOLS:
        return "pool", name
    if name in _REDUCTIONS:
        return "reduce", name
    if name in _PRODUCTS:
        return "product", name
    if name in _SAME_AS_SELF:
        return "self", name
    if name in _elementwise() or name.startswith("special_"):
        return "elementwise", name
    return None, name


def _broadcast(shapes):
    out = []
    for dims in zip(*[(1,) * (max(map(len, shapes)) - len(s)) + tuple(s) for s in shapes]):
        big = [d for d in dims if d != 1]
        out.append(big[0] if big else 1)
    return tuple(out)


def _reduced_shape(name, shape, rest, kwargs):
    """The shape a reduction `name` leaves of `shape`; rest: its arguments after the tensor."""
    if name == "norm":      # norm(p, dim, keepdim)
        rest = rest[1:]
    dim = kwargs.get("dim", rest[0] if rest and type(rest[0]) is not bool else None)
    keep_at = 2 if name in ("std", "var", "std_mean", "var_mean") and len(rest) > 1 and type(rest[1]) is bool else 1
    keepdim = kwargs.get("keepdim", rest[keep_at] if len(rest) > keep_at else False)
    n = len(shape)
    if dim is None or (type(dim) in (list, tuple) and not dim):
        return (1,) * n if keepdim else ()
    dims = {(d + n) % n if n else 0 for d in (dim if type(dim) in (list, tuple) else (dim,))}
    return tuple(1 if i in dims else s for i, s in enumerate(shape) if keepdim or i not in dims)


def _pool_shape(name, module, shape, rest, kwargs):
    n, kind = _POOLS[name]
    params = _POOL_PARAMS[kind]
    if module is not None:
        values = {p: getattr(module, p, None) for p in params}
    else:
        values = dict(zip(params, rest))
        values.update({k: v for k, v in kwargs.items() if k in params})

    def tup(v, default):
        v = default if v is None or (type(v) in (list, tuple) and not v) else v
        return tuple(v) if type(v) in (list, tuple) else (v,) * n
    lead, spatial = tuple(shape[:-n]), shape[-n:]
    if kind == "adaptive":
        size = values["output_size"]
        size = tuple(size) if type(size) in (list, tuple) else (size,) * n
        return lead + tuple(s if o is None else o for s, o in zip(spatial, size))
    k = tup(values["kernel_size"], 1)
    s = tup(values.get("stride"), k)
    p = tup(values.get("padding"), 0)
    d = tup(values.get("dilation"), 1)
    out = []
    for i in range(n):
        span = spatial[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1
        o = (-(-span // s[i]) if values.get("ceil_mode") else span // s[i]) + 1
        if values.get("ceil_mode") and (o - 1) * s[i] >= spatial[i] + p[i]:
            o -= 1
        out.append(o)
    return lead + tuple(out)


def _stand_in(t, pool_dims):
    """A small meta tensor in t's place: each dimension at most 4 (a pool's window dimensions
    at most 64)."""
    shape = t._a.shape
    n = len(shape)
    small = tuple(min(s, 64 if i >= n - pool_dims else 4) for i, s in enumerate(shape))
    p = _new(np.zeros(small, t._a.dtype))
    devices.mark_meta(p)
    p._rg = t._rg or t._fn is not None
    return p


def _rebuild(res, shape, proxies, reals, nodes):
    if type(res) is Tensor:
        out = shaped(shape, res._a.dtype, None, ())
        fn = res._fn
        if fn is not None:
            new = nodes.get(id(fn))
            if new is None:
                owners = {}
                for p, r in zip(proxies, reals):
                    e = edge_of(p)
                    if e is not None:
                        owners[id(e[0])] = r
                edges, shapes = [], []
                for e in fn.edges:
                    r = None if e is None else owners.get(id(e[0]))
                    edges.append(None if r is None else edge_of(r))
                    shapes.append(None if r is None else (r._a.shape, r._a.dtype))
                new = nodes[id(fn)] = Node(_meta_rule(fn.spec.name, len(edges)), tuple(edges), (), tuple(shapes))
            out._fn = new
            out._onr = res._onr
        out._rg = res._rg and fn is None
        return out
    if isinstance(res, tuple):
        items = [_rebuild(r, shape, proxies, reals, nodes) for r in res]
        try:
            return type(res)(items)
        except TypeError:
            return type(res)(*items)
    return res


def module_forward(module, args, kwargs):
    """A torch.nn module's forward on a meta tensor without data (Module.__call__)."""
    name = _MODULES.get(type(module).__name__)
    if name == "linear" and len(args) == 1 and not kwargs and type(args[0]) is Tensor and devices.dataless(args[0]):
        res = run(dataless_call, (REGISTRY["linear"].forward, (args[0], module.weight, module.bias), {}, "linear"), {})
        if res is not NotImplemented:
            return res
    elif name is not None and args and type(args[0]) is Tensor and devices.dataless(args[0]):
        res = run(dataless_call, (module.forward, args, kwargs, name, module), {})
        if res is not NotImplemented:
            return res
    return module.forward(*args, **kwargs)


_NAMES = {}


def register_names(namespace):
    """The names user code calls these functions by (torch.nn.functional's namespace)."""
    for n, f in namespace.items():
        if callable(f):
            _NAMES[id(f)] = (f, n)


def _public_name(fn):
    """The name user code calls fn by (Tensor's methods, torch.nn.functional.*, else its
    __name__): a forward's own __name__ may be a helper's (x.mul_ is `fast_method`)."""
    if not _NAMES.get("tensor"):
        _NAMES["tensor"] = True
        register_names({n: f for n, f in Tensor.__dict__.items() if callable(f)})
    for _ in range(3):      # through the session's wrappers of a host callable (`.fn`)
        hit = _NAMES.get(id(fn))
        if hit is not None and hit[0] is fn:
            return hit[1]
        name = getattr(fn, "__name__", None)
        if name:
            return name
        fn = getattr(fn, "fn", None)
        if fn is None:
            break
    return ""


_INPLACE = frozenset(("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor",
                      "lshift", "rshift"))


def _inplace(fn, args, kwargs):
    """An in-place op on a meta tensor without data: checked on stand-ins (PyTorch's errors),
    then the tensor itself, its version one more (nothing to write)."""
    first = args[0] if args and type(args[0]) is Tensor else None
    if first is None or not devices.dataless(first) or first._fn is not None:
        return NotImplemented
    stand = {}

    def swap(a):
        if type(a) is Tensor and any(d > 4 for d in a._a.shape):
            if id(a) not in stand:
                stand[id(a)] = _stand_in(a, 0)
            return stand[id(a)]
        if type(a) in (list, tuple) and any(type(b) is Tensor for b in a):
            return type(a)(swap(b) for b in a)
        return a
    small = swap(first)
    if small is not first and small._rg and first._fn is None and not first._rg:
        small._rg = False
    fn(*[swap(a) for a in args], **{k: swap(v) for k, v in kwargs.items()})
    first._ver[0] += 1
    return first


def dataless_call(fn, args, kwargs, name=None, module=None):
    """fn(*args, **kwargs) where a tensor argument is a meta tensor without data: the result's
    shape by the op's rule, its dtype and backward node from the same call on stand-ins.
    NotImplemented when the op has no rule here (the call then runs as any meta call)."""
    if name is None:
        name = _public_name(fn)
    if (name.endswith("_") and not name.startswith("__")) or (name.startswith("__i") and name[3:-2] in _INPLACE):
        return _inplace(fn, args, kwargs)
    kind, name = _category(name)
    if kind is None:
        return NotImplemented
    first = args[0] if args and type(args[0]) is Tensor else None
    if first is None:
        return NotImplemented
    rest = args[1:]
    if kind == "elementwise":
        shape = _broadcast([t._a.shape for t in (first, *_tensors(rest, kwargs))])
    elif kind == "reduce":
        if name in ("max", "min") and rest and type(rest[0]) is Tensor:
            shape = _broadcast([first._a.shape, rest[0]._a.shape])
        else:
            shape = _reduced_shape(name, first._a.shape, rest, kwargs)
    elif kind == "product":
        if not rest or type(rest[0]) is not Tensor:
            return NotImplemented
        a, b = first._a.shape, rest[0]._a.shape
        if name == "addmm":
            a, b = b, rest[1]._a.shape if len(rest) > 1 and type(rest[1]) is Tensor else b
        if name == "rmatmul":
            a, b = b, a
        if name == "linear":
            shape = tuple(a[:-1]) + tuple(b[:1] if len(b) == 2 else ())
        elif len(a) == 1 and len(b) == 1:
            shape = ()
        elif len(a) == 1:
            shape = tuple(b[:-2]) + (b[-1],)
        elif len(b) == 1:
            shape = tuple(a[:-1])
        else:
            shape = _broadcast([a[:-2], b[:-2]]) + (a[-2], b[-1])
    elif kind == "pool":
        shape = _pool_shape(name, module, first._a.shape, rest, kwargs)
    else:
        shape = first._a.shape
    pool_dims = _POOLS[name][0] if kind == "pool" else 0
    reals, proxies = [], []

    def swap(a):
        if type(a) is Tensor and any(d > 4 for d in a._a.shape):
            p = _stand_in(a, pool_dims)
            reals.append(a)
            proxies.append(p)
            return p
        if type(a) in (list, tuple) and any(type(b) is Tensor for b in a):
            return type(a)(swap(b) for b in a)
        return a
    res = fn(*[swap(a) for a in args], **{k: swap(v) for k, v in kwargs.items()})
    if type(res) is not Tensor and not (isinstance(res, tuple) and any(type(r) is Tensor for r in res)):
        return NotImplemented
    return _rebuild(res, shape, proxies, reals, {})
