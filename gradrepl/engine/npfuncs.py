"""`import numpy as np`: the part of NumPy that tutorials use beside torch (creation, the legacy
global random state, ufuncs, reductions, shape functions, products, comparisons), computed by
NumPy itself on values that went through ndarray.values and handed back through ndarray.wrap.

No file, buffer, memory or object function is offered (`REFUSED` names say so when read).
"""
import math

import numpy as np

from gradrepl.engine import ndarray as N
from gradrepl.engine.ndarray import NumpyArray, NumpyType, as_array, check_result, dtype_of, shape_of, values, \
    wrap, _axis, _calc
from gradrepl.engine.tensor import Size, Tensor, _new
from gradrepl.limits import check_numel

N.TENSOR.extend((Tensor, _new))
N.SEQUENCES.add(Size)

# Names a learner (or a hostile program) may reach for that are refused with a clear error.
REFUSED = ("load", "save", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt", "fromfile", "tofile",
           "frombuffer", "fromstring", "memmap", "ctypeslib", "lib", "core", "char", "rec", "dtype",
           "object_", "str_", "bytes_", "void", "fromfunction", "frompyfunc", "vectorize", "apply_along_axis",
           "set_printoptions", "seterr", "show_config", "f2py", "distutils", "typing", "polynomial", "fft",
           "linalg", "ma", "emath", "nditer", "einsum", "from_dlpack")

_UNARY = ("exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
          "sinh", "cosh", "tanh", "sqrt", "square", "abs", "absolute", "sign", "floor", "ceil", "trunc",
          "negative", "reciprocal", "isnan", "isinf", "isfinite", "logical_not", "fabs", "exp2", "cbrt")
_BINARY = ("add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "mod", "remainder",
           "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "greater", "greater_equal", "less",
           "less_equal", "equal", "not_equal", "logical_and", "logical_or", "logical_xor")


def _ufunc(name, nin):
    uf = getattr(np, name)

    def call(*args, out=None, dtype=None):
        if len(args) != nin:
            raise TypeError(f"{name}() takes from {nin} to {nin + 1} positional arguments but {len(args)} were given")
        operands = [values(a) for a in args]
        check_result(*operands)
        kw = {} if dtype is None else {"dtype": dtype_of(dtype)}
        if out is None:
            return wrap(_calc(uf, *operands, **kw))
        if type(out) is tuple and len(out) == 1:
            out = out[0]
        if type(out) is not NumpyArray:
            raise TypeError("return arrays must be of ArrayType")
        _calc(uf, *operands, out=out._values(), **kw)
        return out
    call.__name__ = call.__qualname__ = name
    return call


def _reduction(name):
    fn = getattr(np, name)

    def call(a, axis=None, keepdims=False, **kw):
        extra = {}
        if keepdims:
            extra["keepdims"] = True
        if "ddof" in kw:
            extra["ddof"] = kw.pop("ddof")
        if "dtype" in kw:
            extra["dtype"] = dtype_of(kw.pop("dtype"))
        if kw:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kw))}'")
        return wrap(_calc(fn, as_array(a), axis=_axis(axis), **extra))
    call.__name__ = call.__qualname__ = name
    return call


def _filled(shape, fill, dtype, name):
    shape = (int(shape),) if type(shape) in (int, N.NumpyInt) else shape_of((shape,))
    check_numel(math.prod(shape), shape)
    kind = dtype_of(dtype) or (np.float64 if fill is None else None)
    if fill is None:
        return wrap(np.zeros(shape, dtype=kind))
    return wrap(_calc(np.full, shape, values(fill), dtype=kind))


def array(object, dtype=None, copy=True, ndmin=0):
    a = as_array(object, dtype_of(dtype))
    if copy and (type(object) is NumpyArray or type(object) is Tensor):
        a = a.copy()
    if type(ndmin) is not int:
        raise TypeError(f"'{N.type_label(ndmin)}' object cannot be interpreted as an integer")
    return wrap(np.array(a, copy=False, ndmin=ndmin) if ndmin else a)


def asarray(a, dtype=None):
    return wrap(as_array(a, dtype_of(dtype)))


def zeros(shape, dtype=None):
    return _filled(shape, None, dtype, "zeros")


def empty(shape, dtype=None):
    return _filled(shape, None, dtype, "empty")


def ones(shape, dtype=None):
    return _filled(shape, 1, dtype or "float64", "ones")


def full(shape, fill_value, dtype=None):
    return _filled(shape, fill_value, dtype, "full")


def _like(a, fill, dtype):
    base = as_array(a)
    check_numel(base.size, base.shape)
    kind = dtype_of(dtype) or base.dtype
    return wrap(np.zeros(base.shape, kind) if fill is None else _calc(np.full, base.shape, values(fill), dtype=kind))


def zeros_like(a, dtype=None):
    return _like(a, None, dtype)


def empty_like(a, dtype=None):
    return _like(a, None, dtype)


def ones_like(a, dtype=None):
    return _like(a, 1, dtype)


def full_like(a, fill_value, dtype=None):
    return _like(a, fill_value, dtype)


def _number(x):
    v = values(x)
    if np.ndim(v):
        raise TypeError(msg_scalar())
    return v


def msg_scalar():
    return "only length-1 arrays can be converted to Python scalars"


def arange(start, stop=None, step=None, dtype=None):
    args = [_number(v) for v in (start, stop, step) if v is not None]
    if step is not None and stop is None:
        args = [0, *args]
    lo, hi, st = (args + [None, None])[:3] if len(args) > 1 else (0, args[0], None)
    st = 1 if st is None else st
    if st == 0:
        raise ZeroDivisionError("division by zero")
    n = max(0, math.ceil((hi - lo) / st)) if all(map(math.isfinite, (lo, hi, st))) else 0
    check_numel(n, (n,))
    return wrap(np.arange(*args, dtype=dtype_of(dtype)))


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    if type(num) not in (int, N.NumpyInt):
        raise TypeError(f"'{N.type_label(num)}' object cannot be interpreted as an integer")
    check_numel(int(num), (int(num),))
    return wrap(_calc(np.linspace, values(start), values(stop), int(num), endpoint=bool(endpoint),
                      dtype=dtype_of(dtype)))


def eye(N_, M=None, k=0, dtype=None):
    rows = int(N_)
    cols = rows if M is None else int(M)
    check_numel(rows * cols, (rows, cols))
    return wrap(np.eye(rows, cols, int(k), dtype=dtype_of(dtype) or np.float64))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def clip(a, a_min=None, a_max=None):
    lo, hi = (None if v is None else values(v) for v in (a_min, a_max))
    x = values(a)
    check_result(*(v for v in (x, lo, hi) if v is not None))
    return wrap(_calc(np.clip, x, lo, hi))


def where(condition, x=None, y=None):
    if x is None and y is None:
        return tuple(wrap(i) for i in np.nonzero(values(condition)))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    ops = [values(v) for v in (condition, x, y)]
    check_result(*ops)
    return wrap(np.where(*ops))


def round(a, decimals=0):
    if type(decimals) is not int:
        raise TypeError(f"'{N.type_label(decimals)}' object cannot be interpreted as an integer")
    return wrap(_calc(np.round, values(a), decimals))


def dot(a, b):
    x, y = values(a), values(b)
    if not np.ndim(x) or not np.ndim(y):
        check_result(x, y)
    return wrap(N.matmul(x, y, np.dot))


def matmul(a, b):
    x, y = values(a), values(b)
    if not np.ndim(x) or not np.ndim(y):
        raise ValueError("matmul: Input operand %d does not have enough dimensions (has 0, gufunc core with "
                         "signature (n?,k),(k,m?)->(n?,m?) requires 1)" % (0 if not np.ndim(x) else 1))
    return wrap(N.matmul(x, y))


def outer(a, b):
    x, y = np.ravel(values(a)), np.ravel(values(b))
    check_numel(x.size * y.size, (x.size, y.size))
    return wrap(_calc(np.outer, x, y))


def reshape(a, *shape, **kw):
    if "newshape" in kw:
        shape = (kw.pop("newshape"),)
    if "shape" in kw:
        shape = (kw.pop("shape"),)
    if kw:
        raise TypeError(f"reshape() got an unexpected keyword argument '{next(iter(kw))}'")
    return wrap(as_array(a).reshape(shape_of(shape)))


def transpose(a, axes=None):
    return wrap(as_array(a).transpose(None if axes is None else shape_of((axes,))))


def squeeze(a, axis=None):
    return wrap(as_array(a).squeeze(_axis(axis)))


def expand_dims(a, axis):
    return wrap(np.expand_dims(as_array(a), _axis(axis)))


def ravel(a):
    return wrap(np.ravel(as_array(a)))


def _join(fn):
    def call(arrays, axis=0):
        if type(arrays) not in (list, tuple):
            arrays = list(values(arrays)) if type(arrays) is NumpyArray else arrays
        parts = [as_array(a) for a in arrays]
        check_numel(sum(p.size for p in parts))
        return wrap(_calc(fn, parts, **({} if fn in (np.vstack, np.hstack) else {"axis": _axis(axis)})))
    call.__name__ = call.__qualname__ = fn.__name__
    return call


class IndexConcat:
    """np.r_ / np.c_: arrays, numbers and `start:stop:step` ranges joined along the first axis
    (r_) or as columns (c_), by NumPy itself once the parts are plain values."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __getitem__(self, key):
        parts, total = [], 0
        for item in (key if type(key) is tuple else (key,)):
            if type(item) is slice:
                bounds = [item.start, item.stop, item.step]
                if item.stop is None or any(b is not None and type(b) not in (int, float) for b in bounds):
                    raise TypeError(N.msg("numpy.index_range", "en", name=self.name))
                start, stop, step = item.start or 0, item.stop, item.step or 1
                total += max(0, math.ceil((stop - start) / step))
                parts.append(item)
            elif type(item) in (int, float, bool):
                total += 1
                parts.append(item)
            else:
                arr = as_array(item)
                total += arr.size
                parts.append(arr)
        check_numel(total)
        return wrap(getattr(np, self.name)[tuple(parts)])

    def __repr__(self):
        return f"<numpy.lib._index_tricks_impl.{'CClass' if self.name == 'c_' else 'RClass'} object>"


def argsort(a, axis=-1):
    return wrap(np.argsort(as_array(a), axis=_axis(axis)))


def sort(a, axis=-1):
    return wrap(np.sort(as_array(a), axis=_axis(axis)))


def unique(a):
    return wrap(np.unique(as_array(a)))


def cumsum(a, axis=None):
    return wrap(_calc(np.cumsum, as_array(a), axis=_axis(axis)))


def cumprod(a, axis=None):
    return wrap(_calc(np.cumprod, as_array(a), axis=_axis(axis)))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x, y = values(a), values(b)
    check_result(x, y)
    return wrap(np.allclose(x, y, rtol=float(rtol), atol=float(atol), equal_nan=bool(equal_nan)))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x, y = values(a), values(b)
    check_result(x, y)
    return wrap(np.isclose(x, y, rtol=float(rtol), atol=float(atol), equal_nan=bool(equal_nan)))


def array_equal(a1, a2):
    return wrap(np.array_equal(values(a1), values(a2)))


def shape(a):
    return tuple(int(n) for n in np.shape(values(a)))


def size(a):
    return int(np.size(values(a)))


def ndim(a):
    return int(np.ndim(values(a)))


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg="", verbose=True):
    if type(err_msg) is not str:
        raise TypeError("err_msg must be a string")
    x, y = values(actual), values(desired)
    check_result(x, y)
    np.testing.assert_allclose(x, y, rtol=float(rtol), atol=float(atol), equal_nan=bool(equal_nan),
                               err_msg=err_msg, verbose=bool(verbose))


def assert_array_equal(actual, desired, err_msg=""):
    if type(err_msg) is not str:
        raise TypeError("err_msg must be a string")
    np.testing.assert_array_equal(values(actual), values(desired), err_msg=err_msg)


# --- np.random: NumPy's legacy global RandomState ------------------------------------------

def _size(size):
    if size is None:
        return None
    shape = (int(size),) if type(size) in (int, N.NumpyInt) else shape_of((size,))
    check_numel(math.prod(shape), shape)
    return shape


def random_namespace():
    rng = np.random.RandomState()

    def seed(seed=None):
        if seed is not None and type(seed) not in (int, N.NumpyInt):
            seed = as_array(seed)
        rng.seed(seed if type(seed) is not N.NumpyInt else int(seed))

    def rand(*shape):
        return wrap(rng.rand(*_size(shape) or ()))

    def randn(*shape):
        return wrap(rng.randn(*_size(shape) or ()))

    def random(size=None):
        return wrap(rng.random_sample(_size(size)))

    def uniform(low=0.0, high=1.0, size=None):
        return wrap(rng.uniform(values(low), values(high), _size(size)))

    def normal(loc=0.0, scale=1.0, size=None):
        return wrap(rng.normal(values(loc), values(scale), _size(size)))

    def randint(low, high=None, size=None, dtype=None):
        kw = {} if dtype is None else {"dtype": dtype_of(dtype)}    # NumPy's default: a Python int alone
        return wrap(rng.randint(values(low), None if high is None else values(high), _size(size), **kw))

    def choice(a, size=None, replace=True, p=None):
        pool = int(a) if type(a) in (int, N.NumpyInt) else as_array(a)
        return wrap(rng.choice(pool, _size(size), bool(replace), None if p is None else as_array(p)))

    def shuffle(x):
        if type(x) is NumpyArray:
            rng.shuffle(x._values())
        elif type(x) is list:
            check_numel(len(x))
            rng.shuffle(x)
        else:
            raise TypeError(N.msg("numpy.operand", "en", name=N.type_label(x)))

    def multinomial(n, pvals, size=None):
        shape = _size(size) or ()
        pv = as_array(pvals)
        check_numel(math.prod(shape) * max(1, pv.size), shape)
        return wrap(rng.multinomial(int(values(n)), pv, shape or None))

    def binomial(n, p, size=None):
        return wrap(rng.binomial(values(n), values(p), _size(size)))

    def permutation(x):
        if type(x) in (int, N.NumpyInt):
            check_numel(int(x), (int(x),))
            return wrap(rng.permutation(int(x)))
        return wrap(rng.permutation(as_array(x)))

    fns = {"seed": seed, "rand": rand, "randn": randn, "random": random, "random_sample": random,
           "uniform": uniform, "normal": normal, "randint": randint, "choice": choice, "shuffle": shuffle,
           "permutation": permutation, "multinomial": multinomial, "binomial": binomial}
    for name, fn in fns.items():
        fn.__name__ = fn.__qualname__ = name
    return fns


def namespace():
    """The numpy facade's entries (nested dicts for np.random and np.testing); one random
    state per call (per session)."""
    entries = {name: getattr(np, name) for name in ("pi", "e", "inf", "nan")}
    entries["newaxis"] = None
    for name in DTYPE_NAMES:
        entries[name] = NumpyType(name.rstrip("_") if name == "bool_" else name)
    entries["bool"] = entries["bool_"]
    for name in _UNARY:
        entries[name] = _ufunc(name, 1)
    for name in _BINARY:
        entries[name] = _ufunc(name, 2)
    for name in ("sum", "mean", "std", "var", "max", "min", "amax", "amin", "argmax", "argmin", "prod", "any",
                 "all"):
        entries[name] = _reduction(name)
    for fn in (np.concatenate, np.stack, np.vstack, np.hstack):
        entries[fn.__name__] = _join(fn)
    for fn in (array, asarray, zeros, empty, ones, full, zeros_like, empty_like, ones_like, full_like, arange,
               linspace, identity, clip, where, round, dot, matmul, outer, reshape, transpose, squeeze,
               expand_dims, ravel, argsort, sort, unique, cumsum, cumprod, allclose, isclose, array_equal,
               shape, size, ndim):
        entries[fn.__name__] = fn
    entries["c_"], entries["r_"] = IndexConcat("c_"), IndexConcat("r_")
    entries["eye"] = eye
    eye.__name__ = eye.__qualname__ = "eye"
    entries["around"] = round
    entries["random"] = random_namespace()
    entries["testing"] = {"assert_allclose": assert_allclose, "assert_array_equal": assert_array_equal}
    return entries


DTYPE_NAMES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_")
