"""Small shape, dim and message helpers shared by the Tensor class and the ops.

Nothing here knows the Tensor class: a tensor argument is recognised by its `_a` array.
"""
from gradrepl.limits import check_numel

_WARN = [None]  # warning sink: callable(category, message), set by api.set_warning_sink


def warn(category, message):
    sink = _WARN[0]
    if sink is not None:
        sink(category, message)


def pytype(v):
    """The type name PyTorch's messages use (`Tensor`, `str`, ...)."""
    return type(v).__name__


# The parser names a value by its C type's tp_name: PyTorch's own C types go by their full name.
_TP_NAMES = {"Size": "torch.Size", "DType": "torch.dtype", "Device": "torch.device", "Layout": "torch.layout",
             "MemoryFormat": "torch.memory_format"}


def _tp_name(v):
    name = type(v).__name__
    if type(v).__module__.startswith("gradrepl.engine"):
        return _TP_NAMES.get(name, name)
    return name


def got_args(args, kwargs):
    """The `got (...)` of PyTorch's "invalid combination of arguments" messages: the
    positional types, then name=type for the keywords (the last one first, as PyTorch's
    parser lists them; a trailing ', ' when there is no positional argument)."""
    kw = [f"{k}={_tp_name(v)}" for k, v in reversed(list(kwargs.items()))]
    if args:
        return ", ".join([_tp_name(a) for a in args] + kw)
    return "".join(k + ", " for k in kw)


def shape_list(shape):
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


_CNAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "int64": "long int", "int32": "int",
           "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
           "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def cname(dtype):
    """The C++ name of a dtype (`float`, `long int`) as PyTorch's messages print it."""
    return _CNAMES[dtype.name]


def legacy_scalar(dtype):
    return dtype.legacy[:-len("Tensor")]


def prod(xs):
    p = 1
    for x in xs:
        p *= int(x)
    return p


def wrap_dim(d, ndim):
    """A dim wrapped into [0, ndim), with PyTorch's messages."""
    if type(d) is not int:
        if hasattr(d, "_a"):
            d = d.item()
        if not isinstance(d, int) or isinstance(d, bool):
            raise TypeError(f"dim must be an int, not {pytype(d)}")
    n = ndim if ndim > 1 else 1
    if d < -n or d >= n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d + n if d < 0 else d


def dims_opt(dim, ndim):
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return tuple(wrap_dim(d, ndim) for d in dim)
    return wrap_dim(dim, ndim)


def dims_tuple(dim, ndim):
    if isinstance(dim, (tuple, list)):
        wrapped = [wrap_dim(d, ndim) for d in dim]
        for i, d in enumerate(wrapped):
            if d in wrapped[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        dims = tuple(sorted(wrapped))
    else:
        dims = (wrap_dim(dim, ndim),)
    return dims if ndim else ()  # a 0-d tensor reduces over dim 0 or -1 as over nothing


def shape_args(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    for a in args:
        if type(a) is not int:
            break
    else:
        return args if type(args) is tuple else tuple(args)     # plain ints: the common case
    out = []
    for a in args:
        if hasattr(a, "_a"):
            a = a.item()
        if not isinstance(a, int) or isinstance(a, bool):
            raise TypeError(f"expected a sequence of integers, but got an element of type {pytype(a)}")
        out.append(a)
    return tuple(out)


def infer_shape(shape, numel):
    if type(shape) is tuple and (not shape or min(shape) >= -1):     # the common cases, nothing wrong
        missing = shape.count(-1)
        if not missing and prod(shape) == numel:
            return shape
        if missing == 1:
            i = shape.index(-1)
            known = prod(shape[:i]) * prod(shape[i + 1:])
            if known and not numel % known:
                return shape[:i] + (numel // known,) + shape[i + 1:]
    shape = list(shape)
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = prod(s for s in shape if s != -1)
    if neg:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{shape_list(shape)}' is invalid for input of size {numel}")
        shape[neg[0]] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{shape_list(shape)}' is invalid for input of size {numel}")
    for s in shape:
        if s < 0:
            raise RuntimeError(f"invalid shape dimension {s}")
    return tuple(shape)


def needs_copy(arr, new_shape):
    try:
        v = arr.view()
        v.shape = new_shape
        return False
    except AttributeError:
        return True


def broadcast_shape(sa, sb, out=None):
    """Broadcast two shapes, with PyTorch's message on mismatch; checks the element budget."""
    if sa == sb:
        return sa
    na, nb = len(sa), len(sb)
    if out is None and nb < na and sa[na - nb:] == sb:     # `x + bias`: b fits a's trailing dims
        check_numel(prod(sa), sa)
        return tuple(sa)
    n = max(na, nb)
    res = []
    for i in range(n - 1, -1, -1):
        a = sa[i - n + na] if i - n + na >= 0 else 1
        b = sb[i - n + nb] if i - n + nb >= 0 else 1
        if a == b or b == 1:
            res.append(a)
        elif a == 1:
            res.append(b)
        else:
            raise RuntimeError(
                f"The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {i}")
    res = tuple(reversed(res))
    if out is not None and res != tuple(out):
        raise RuntimeError(
            f"output with shape {shape_list(out)} doesn't match the broadcast shape {shape_list(res)}")
    check_numel(prod(res), res)
    return res


def check_gather_scatter(name, self_shape, dim, idx, src_shape=None):
    """PyTorch's checks of gather/scatter arguments (ScatterGatherChecks.h): same number of
    dims, index no larger than self (and src) apart from dim, every index within self's size."""
    nd = len(self_shape)
    if idx.ndim and nd and idx.ndim != nd:
        what = "input" if name == "gather" else "self"
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {what} tensor")
    if src_shape is not None and idx.ndim and len(src_shape) and idx.ndim != len(src_shape):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if idx.ndim == nd:
        for d in range(nd):
            if d != dim and idx.shape[d] > self_shape[d]:
                if name == "gather":
                    raise RuntimeError(f"Size does not match at dimension {d} expected index "
                                       f"{shape_list(idx.shape)} to be no larger than self "
                                       f"{shape_list(self_shape)} apart from dimension {dim}")
                break
        else:
            d = None
        if name != "gather":
            bad_src = src_shape is not None and len(src_shape) == idx.ndim and \
                any(i > s for i, s in zip(idx.shape, src_shape))
            if d is not None or bad_src:
                tail = f" and to be no larger size than src {shape_list(src_shape)}" \
                    if src_shape is not None else ""
                raise RuntimeError(f"Expected index {shape_list(idx.shape)} to be no larger than self "
                                   f"{shape_list(self_shape)} apart from dimension {dim}{tail}")
    size = self_shape[dim] if nd else 1
    if idx.size:
        flat = idx.reshape(-1)
        bad = (flat < 0) | (flat >= size)
        if bad.any():
            v = int(flat[bad.argmax()])
            raise RuntimeError(f"index {v} is out of bounds for dimension {dim} with size {size}")
