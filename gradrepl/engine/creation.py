"""torch.* creation functions and the random number state (no ops, no autograd)."""
import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine import devices, rng
from gradrepl.engine.ndarray import NumpyArray, NumpyFloat, NumpyInt
from gradrepl.engine.rounding import arange_values, fma32
from gradrepl.engine.tensor import Size, Tensor, TypedStorage, _new
from gradrepl.engine.util import got_args, legacy_scalar, prod, pytype, shape_args, shape_list, warn
from gradrepl.limits import check_numel

def _dtype_arg(dtype, default=None):
    if dtype is None:
        return default
    if isinstance(dtype, D.DType):
        return dtype
    raise TypeError(f"dtype must be torch.dtype, not {pytype(dtype)}")


def _finish(arr, requires_grad):
    t = _new(arr)
    if requires_grad:
        if arr.dtype.kind not in "fVc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._rg = True
    return t


def _check_bytes(shape, dtype):
    n = prod(shape)
    if not (devices.MODE[0] and n > devices.DATALESS):     # a large meta tensor has no data
        check_numel(n, shape)
    return n


def _meta_blank(shape, dt):
    """In meta mode, a tensor too large to back by zeros: no data (devices.blank)."""
    if devices.MODE[0] and prod(shape) > devices.DATALESS:
        return devices.blank(shape, dt.np)
    return None


def _size_args(size, fn_name):
    shape = shape_args(size)
    for s in shape:
        if s < 0:
            if fn_name == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {shape_list(shape)}")
    return shape


_SEQUENCES = (list, tuple, range)   # what torch.tensor reads as a sequence


def _check_nominal_size(data):
    """The element count down the first elements, refused before any walk over the leaves:
    a list repeating one long row (`[[0.5] * 10**4] * 10**4`) is small but has 10**8 leaves."""
    n, x = 1, data
    while isinstance(x, (list, tuple)) and x:
        n *= len(x)
        x = x[0]
    if type(x) is Tensor:
        n *= x._a.size
    elif type(x) is range:
        n *= len(x)
    check_numel(n)


def _check_leaves(data):
    """PyTorch infers the dtype from every element before it fills the tensor: a leaf that is
    not a number or a tensor is refused with its messages (a str down the first elements is
    read as a sequence that never ends)."""
    x = data
    while isinstance(x, (list, tuple)) and x:
        x = x[0]
        if type(x) is str:
            raise ValueError("too many dimensions 'str'")
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif not isinstance(x, (bool, int, float, complex, range)) and type(x) is not Tensor:
            if isinstance(x, (str, bytes)):
                raise TypeError(f"new(): invalid data type '{pytype(x)}'")
            raise RuntimeError(f"Could not infer dtype of {pytype(x)}")


def _infer_data(data):
    """Shape and flat scalars of nested lists, with PyTorch's messages for ragged data."""
    def shape_of(x, depth):
        if type(x) is Tensor:       # inside a list a tensor is one number, as PyTorch reads it
            if x._a.size != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            return ()
        if isinstance(x, _SEQUENCES):
            if not x:
                return (0,)
            first = shape_of(x[0], depth + 1)
            for y in x[1:]:
                s = shape_of(y, depth + 1)
                if s != first:
                    if isinstance(y, _SEQUENCES) or type(y) is Tensor:
                        got = len(y) if isinstance(y, _SEQUENCES) else (y._a.shape[0] if y._a.ndim else 0)
                        if first and got != first[0]:
                            raise ValueError(f"expected sequence of length {first[0]} at dim {depth + 1} (got {got})")
                    raise TypeError("not a sequence" if first else f"expected sequence of length 0 at dim {depth + 1}")
            return (len(x),) + first
        return ()
    shape = shape_of(data, 0)
    check_numel(prod(shape), shape)
    return shape


def _flat_values(data):
    kinds = set()
    out = []
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(reversed(x))
        elif type(x) is range:
            out.extend(x)
            if x:
                kinds.add("i")
        elif type(x) is Tensor:
            out.extend(x._a.reshape(-1).tolist())
            kinds.add(x._a.dtype.kind)
        elif isinstance(x, bool):
            out.append(x)
            kinds.add("b")
        elif isinstance(x, int):
            out.append(x)
            kinds.add("i")
        elif isinstance(x, complex):
            out.append(x)
            kinds.add("c")
        else:   # a float: _check_leaves refused everything else
            out.append(x)
            kinds.add("f")
    return out, kinds


def from_numpy(ndarray):
    """torch.from_numpy of what Tensor.numpy() gave: a tensor over the same memory."""
    if type(ndarray) is not NumpyArray:
        raise TypeError(f"expected np.ndarray (got {pytype(ndarray)})")
    return _new(ndarray._values())


def _check_int_data(values, dtype):
    """torch.tensor's checks of the numbers given for an integer dtype: a Python int must fit a C long long,
    every value the dtype (an unsigned one takes integers down to -max, which wrap, and no negative float)."""
    info = np.iinfo(dtype.np)
    lo = -info.max if info.min == 0 else info.min
    for v in values:
        if type(v) is int and not -2 ** 63 <= v < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
    for v in values:
        if not (lo if type(v) is not float else info.min) <= v <= info.max:   # False for NaN too
            raise RuntimeError(f"value cannot be converted to type {np.dtype(dtype.np).name} without overflow")


def _complex_to_real(dtype):
    """Python's error converting a complex number to the element of a real dtype (PyTorch's)."""
    if dtype.is_floating_point:
        return TypeError("must be real number, not complex")
    return TypeError("'complex' object cannot be interpreted as an integer")


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    dtype = _dtype_arg(dtype)
    if type(data) is NumpyArray:          # a copy, without the copy-construct warning of a tensor
        arr = data._values().copy()
        return _finish(arr if dtype is None else arr.astype(dtype.np), requires_grad)
    if type(data) is Tensor:
        warn("UserWarning", "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
             "or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).")
        arr = data._a.copy()
        if dtype is not None:
            arr = arr.astype(dtype.np)
        return _finish(arr, requires_grad)
    if type(data) in (NumpyFloat, NumpyInt) and dtype is None:     # a NumPy scalar keeps its dtype
        return _finish(np.asarray(data._np), requires_grad)
    if isinstance(data, (bool, int, float, complex)):
        kind = D.scalar_kind(data)
        dt = dtype or (D.bool_, D.int64, D.DEFAULT_FLOAT[0], D.default_complex())[kind]
        if kind == 3 and not dt.is_complex:
            if dt is D.bool_:
                return _finish(np.asarray(data != 0), requires_grad)
            raise _complex_to_real(dt)
        if dt.is_complex:
            return _finish(np.asarray(complex(data)).astype(dt.np), requires_grad)
        if not dt.is_floating_point and dt is not D.bool_:
            _check_int_data((data,), dt)
            data = np.int64(int(data))
        return _finish(np.asarray(data).astype(dt.np), requires_grad)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{pytype(data)}'")
    if not isinstance(data, _SEQUENCES):
        raise RuntimeError(f"Could not infer dtype of {pytype(data)}")
    _check_nominal_size(data)
    _check_leaves(data)
    shape = _infer_data(data)
    flat, kinds = _flat_values(data)
    if dtype is None:
        if "c" in kinds:
            dtype = D.default_complex()
        elif "f" in kinds:
            dtype = D.DEFAULT_FLOAT[0]
        elif "i" in kinds or "u" in kinds:
            dtype = D.int64
        elif "b" in kinds:
            dtype = D.bool_
        else:
            dtype = D.DEFAULT_FLOAT[0]
    if dtype.is_complex:
        arr = np.array(flat, dtype=np.complex128).astype(dtype.np)
    elif "c" in kinds and dtype is not D.bool_:
        raise _complex_to_real(dtype)
    elif dtype.is_floating_point:
        arr = np.array(flat, dtype=np.float64).astype(dtype.np)
    else:
        if dtype is not D.bool_:
            _check_int_data(flat, dtype)
            flat = np.array([int(v) for v in flat], np.int64)   # C's casts: toward zero, negatives wrap
        arr = np.array(flat).astype(dtype.np)
    return _finish(arr.reshape(shape), requires_grad)


def as_tensor(data, dtype=None, device=None):
    if type(data) is Tensor:          # no copy warning: as_tensor of a tensor is data.to(dtype)
        return data if dtype is None or dtype is data.dtype else data.to(dtype)
    if type(data) is NumpyArray and dtype is None:
        return from_numpy(data)
    return tensor(data, dtype=dtype)


ASARRAY_GRAD = ("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. Pass "
                "requires_grad=False explicitly to get the old behavior and silence this warning.")
ASARRAY_WARNED = [False]


def _asarray_convert(t, dtype, copy):
    if dtype is not None and dtype is not t.dtype:
        if copy is False:
            raise ValueError(f"can't alias tensor with dtype '{legacy_scalar(t.dtype)}' into dtype "
                             f"'{legacy_scalar(dtype)}'.")
        return t.to(dtype)
    return t.clone() if copy else t


def _asarray_grad(t, requires_grad):
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """torch.asarray: a tensor, a NumPy array (shared unless copied) or Python data. A tensor
    comes back itself (its graph too) when nothing asks for a copy or another dtype."""
    dtype = _dtype_arg(dtype)
    if type(obj) is Tensor:
        if requires_grad is None:
            if obj._rg and not ASARRAY_WARNED[0]:    # TORCH_WARN_ONCE: once per process
                ASARRAY_WARNED[0] = True
                warn("UserWarning", ASARRAY_GRAD)
            return _asarray_convert(obj, dtype, copy)
        out = _asarray_convert(obj, dtype, copy)
        if out is obj:      # PyTorch's alias: the tensor itself leaves its graph (detach_) and takes the flag
            obj._fn = None
            obj._onr = 0
            obj._rg = False
            obj._retains = False
        else:
            out = out.detach()
        return _asarray_grad(out, requires_grad)
    if type(obj) is NumpyArray and not copy and (dtype is None or dtype.np == obj._values().dtype):
        out = from_numpy(obj)
    else:
        out = tensor(obj, dtype=dtype)
    return _asarray_grad(out, requires_grad)


def legacy_from_numpy(args, dtype):
    """torch.Tensor(ndarray) / torch.FloatTensor(ndarray): a copy in that dtype; a NumPy float
    scalar is not a sequence (a NumPy int is a size); torch.Tensor(x.storage()) shares the
    storage's memory, flat. None when args are something else."""
    if len(args) == 1 and type(args[0]) is TypedStorage:
        root = args[0].root
        if root.dtype is not dtype:
            raise RuntimeError(f"Expected a Storage of type {dtype.legacy[:-len('Tensor')]} or an UntypedStorage, "
                               f"but got type {root.dtype.legacy[:-len('Tensor')]} for argument 1 'storage'")
        return _new(root._a.reshape(-1))
    if len(args) == 1 and type(args[0]) is NumpyArray:
        return tensor(args[0], dtype=dtype)
    if len(args) == 1 and type(args[0]) is NumpyFloat:
        raise TypeError(f"new(): data must be a sequence (got numpy.{type(args[0]._np).__name__})")
    return None


def legacy_is_data(args):
    """torch.Tensor((2, 3)) is data, as a list is; only a torch.Size is a shape."""
    return len(args) == 1 and isinstance(args[0], (list, tuple)) and type(args[0]) is not Size


LEGACY_NEW_SIGNATURES = (" * (*, torch.device device = None)\n * (torch.Storage storage)\n * (Tensor other)\n"
                         " * (tuple of ints size, *, torch.device device = None)\n"
                         " * (object data, *, torch.device device = None)\n")
# How many arguments PyTorch's message formatter counts in each signature (it counts the `*`): a
# signature with as many as the call passed (positional + keyword) is marked with the keywords.
_LEGACY_NEW_COUNTS = (2, 1, 1, 3, 3)


def check_legacy_kwargs(args, kwargs):
    """torch.Tensor(...) / torch.FloatTensor(...) take `device=` and no other keyword (requires_grad=,
    dtype=: PyTorch's parser refuses the call, naming every argument it was given)."""
    if any(k != "device" for k in kwargs):
        got = got_args(args, {k: (_DtypeName() if isinstance(v, D.DType) else v) for k, v in kwargs.items()})
        n = len(args) + len(kwargs)
        mark = ("      didn't match because some of the keywords were incorrect: "
                + ", ".join(reversed(list(kwargs))) + "\n")
        lines = LEGACY_NEW_SIGNATURES.splitlines(keepends=True)
        expected = "".join(line + (mark if count == n else "") for line, count in zip(lines, _LEGACY_NEW_COUNTS))
        raise TypeError(f"new() received an invalid combination of arguments - got ({got}), but expected one "
                        f"of:\n{expected}")


class _DtypeName:
    """Stands for a dtype argument in a `got (...)` list, where PyTorch writes `torch.dtype`."""


_DtypeName.__name__ = "torch.dtype"


def legacy_tensor(*args, **kwargs):
    """torch.Tensor(...): float32 data from a sequence, or an uninitialised (here: zero) tensor of a shape."""
    check_legacy_kwargs(args, kwargs)
    devices.check_legacy(kwargs.pop("device", None))
    from_numpy_data = legacy_from_numpy(args, D.float32)
    if from_numpy_data is not None:
        return from_numpy_data
    if legacy_is_data(args):
        return tensor(args[0], dtype=D.float32)
    if not args:                  # torch.Tensor(): an empty 1-d tensor
        return _new(np.zeros((0,), np.float32))
    if len(args) == 1 and type(args[0]) is Tensor:
        return args[0].to(D.float32)
    if len(args) == 1 and isinstance(args[0], float):
        raise TypeError("new(): data must be a sequence (got float)")
    shape = _size_args(args, "Tensor")
    _check_bytes(shape, D.float32)
    return _new(np.zeros(shape, np.float32))


def _creator(fill):
    def create(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
               memory_format=None):
        shape = _size_args(size, fill.__name__)
        dt = _dtype_arg(dtype, D.DEFAULT_FLOAT[0])
        _check_bytes(shape, dt)
        blank = _meta_blank(shape, dt)
        return _finish(fill(shape, dt.np) if blank is None else blank, requires_grad)
    return create


ones = _creator(np.ones)
zeros = _creator(np.zeros)
empty = _creator(np.zeros)
ones.__name__, zeros.__name__, empty.__name__ = "ones", "zeros", "empty"


def full(size, fill_value, dtype=None, requires_grad=False, device=None):
    if type(size) is int:
        raise TypeError("full(): argument 'size' (position 1) must be tuple of ints, not int")
    shape = _size_args(size, "full")
    if type(fill_value) is Tensor:
        fill_value = fill_value.item()
    if not isinstance(fill_value, (bool, int, float, complex)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not {pytype(fill_value)}")
    if dtype is None:
        dtype = (D.bool_, D.int64, D.DEFAULT_FLOAT[0], D.default_complex())[D.scalar_kind(fill_value)]
    _check_bytes(shape, dtype)
    blank = _meta_blank(shape, dtype)
    return _finish(np.full(shape, fill_value, dtype.np) if blank is None else blank, requires_grad)


def _like(fn):
    def like(input, dtype=None, requires_grad=False, device=None, memory_format=None, **kw):
        dt = _dtype_arg(dtype, input.dtype)
        blank = _meta_blank(input._a.shape, dt)
        return _finish(fn(input._a.shape, dt.np) if blank is None else blank, requires_grad)
    return like


ones_like = _like(np.ones)
zeros_like = _like(np.zeros)
empty_like = _like(np.zeros)


def full_like(input, fill_value, dtype=None, requires_grad=False, device=None):
    dt = _dtype_arg(dtype, input.dtype)
    blank = _meta_blank(input._a.shape, dt)
    return _finish(np.full(input._a.shape, fill_value, dt.np) if blank is None else blank, requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False, device=None):
    vals = [v.item() if type(v) is Tensor else v for v in (start, end, step)]
    start, end, step = vals
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0 and end != start:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    n = max(0, int(np.ceil((end - start) / step)))
    check_numel(n, (n,))
    if dtype is None:
        dtype = D.DEFAULT_FLOAT[0] if any(isinstance(v, float) for v in (start, end, step)) else D.int64
    if dtype is D.float32 or dtype is D.float64:
        arr = arange_values(float(start), float(step), n, dtype.np)
    elif dtype.is_floating_point:
        arr = (start + np.arange(n, dtype=np.float64) * step).astype(dtype.np)
    else:
        arr = np.arange(start, start + n * step, step, dtype=dtype.np)[:n]
    return _finish(arr, requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False, device=None):
    if not isinstance(steps, int) or steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    check_numel(steps, (steps,))
    dt = _dtype_arg(dtype, D.DEFAULT_FLOAT[0])
    if steps == 1:
        arr = np.asarray([start], dt.np)
    else:
        # PyTorch's CPU kernel: step from the start for the first half, from the end for the
        # second, in the dtype itself (float32: one fused multiply-add per element)
        half = steps // 2
        if dt is D.float32:
            start32, end32 = np.float32(start), np.float32(end)
            step = np.float32(end32 - start32) / np.float32(steps - 1)
            idx = np.arange(steps, dtype=np.float32)
            arr = np.concatenate([fma32(step, idx[:half], start32),
                                  fma32(-step, np.float32(steps - 1) - idx[half:], end32)])
        elif dt in D.REDUCED:
            # float16/bfloat16: every operation rounded to the dtype, the index too
            r = dt.np.type
            first, last = r(start), r(end)
            step = r((last - first) / r(steps - 1))
            idx = np.arange(steps, dtype=np.float32)
            arr = np.concatenate([first + step * idx[:half].astype(dt.np),
                                  last - step * (np.float32(steps - 1) - idx[half:]).astype(dt.np)])
        else:
            step = (end - start) / (steps - 1)
            idx = np.arange(steps, dtype=np.float64)
            arr = np.where(idx < half, start + step * idx, end - step * (steps - 1 - idx))
        arr = arr.astype(dt.np)
    return _finish(arr, requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False, device=None):
    m = n if m is None else m
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    check_numel(n * m, (n, m))
    dt = _dtype_arg(dtype, D.DEFAULT_FLOAT[0])
    return _finish(np.eye(n, m, dtype=dt.np), requires_grad)


# ================================================================ random
def _gen(generator):
    if generator is None:
        return rng.default_generator
    if type(generator) is not rng.Generator:   # never a user object the engine calls into
        raise TypeError(f"generator must be a torch.Generator, not {type(generator).__name__}")
    return generator


def _float_dtype(dtype, kernel):
    """rand's and randn's dtype: a floating or complex one (PyTorch's kernels have no integer version)."""
    dt = _dtype_arg(dtype, D.DEFAULT_FLOAT[0])
    if not dt.is_floating_point and not dt.is_complex:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{legacy_scalar(dt)}\'')
    return dt


def rand(*size, generator=None, dtype=None, requires_grad=False, device=None):
    shape = _size_args(size, "rand")
    dt = _float_dtype(dtype, "check_uniform_bounds")
    _check_bytes(shape, dt)
    blank = _meta_blank(shape, dt)
    if blank is not None:
        return _finish(blank, requires_grad)
    if dt.is_complex:     # uniform_ on view_as_real: real and imaginary parts interleaved
        real = D.REAL_OF[dt].np
        pairs = np.asarray(_gen(generator).rand(shape + (2,), real), real)
        return _finish(np.ascontiguousarray(pairs).view(dt.np).reshape(shape), requires_grad)
    return _finish(np.asarray(_gen(generator).rand(shape, dt.np), dt.np).reshape(shape), requires_grad)


def randn(*size, generator=None, dtype=None, requires_grad=False, device=None):
    shape = _size_args(size, "randn")
    dt = _float_dtype(dtype, "normal_kernel_cpu")
    _check_bytes(shape, dt)
    blank = _meta_blank(shape, dt)
    if blank is not None:
        return _finish(blank, requires_grad)
    if dt.is_complex:     # normal_ on view_as_real with std 1/sqrt(2): each part has variance 1/2
        real = D.REAL_OF[dt].np
        pairs = np.asarray(_gen(generator).normal(shape + (2,), 0.0, 1 / np.sqrt(2.0), real), real)
        return _finish(np.ascontiguousarray(pairs).view(dt.np).reshape(shape), requires_grad)
    return _finish(np.asarray(_gen(generator).randn(shape, dt.np), dt.np).reshape(shape), requires_grad)


def randint(low, high=None, size=None, generator=None, dtype=None, requires_grad=False, device=None):
    if size is None and isinstance(high, (tuple, list)):
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if size is None or type(size) is int:   # the session's call site gives PyTorch's message
        raise TypeError("randint() takes a tuple of ints as its size")
    shape = _size_args(size, "randint")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    dt = _dtype_arg(dtype, D.int64)
    if dt.is_complex:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")
    _check_bytes(shape, dt)
    blank = _meta_blank(shape, dt)
    if blank is not None:
        return _finish(blank, requires_grad)
    return _finish(np.asarray(_gen(generator).randint(low, high, shape, dt.np), dt.np).reshape(shape), requires_grad)


def randperm(n, generator=None, dtype=None, requires_grad=False, device=None):
    check_numel(n, (n,))
    dt = _dtype_arg(dtype, D.int64)
    return _finish(np.asarray(_gen(generator).randperm(n, dt.np), dt.np), requires_grad)


def rand_like(input, dtype=None, requires_grad=False, generator=None):
    return rand(*input._a.shape, dtype=dtype or input.dtype, requires_grad=requires_grad, generator=generator)


def randn_like(input, dtype=None, requires_grad=False, generator=None):
    return randn(*input._a.shape, dtype=dtype or input.dtype, requires_grad=requires_grad, generator=generator)


def randint_like(input, low, high=None, dtype=None, requires_grad=False):
    return randint(low, high, tuple(input._a.shape), dtype=dtype or input.dtype, requires_grad=requires_grad)


def normal(mean=0.0, std=1.0, size=None, generator=None, dtype=None, requires_grad=False):
    g = _gen(generator)
    if type(mean) is Tensor or type(std) is Tensor:
        m = mean._a if type(mean) is Tensor else mean
        s = std._a if type(std) is Tensor else std
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
        like = mean if type(mean) is Tensor else std
        return _new(np.asarray(g.normal(shape, m, s, like._a.dtype), like._a.dtype))
    shape = _size_args(size if size is not None else (), "normal")
    dt = _float_dtype(dtype, "normal_kernel_cpu")
    return _finish(np.asarray(g.normal(shape, mean, std, dt.np), dt.np).reshape(shape), requires_grad)


def bernoulli(input, p=None, generator=None):
    g = _gen(generator)
    probs = input._a if p is None else p
    return _new(np.asarray(g.bernoulli(probs, input._a.shape, input._a.dtype), input._a.dtype))


def multinomial(input, num_samples, replacement=False, generator=None):
    a = input._a
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{legacy_scalar(input.dtype)}")
    if a.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if isinstance(num_samples, int) and num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > a.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if not np.isfinite(a.astype(np.float64)).all() or (a < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (a.reshape(-1, a.shape[-1]).sum(-1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if isinstance(num_samples, int) and num_samples > 0:
        check_numel(num_samples * (input._a.shape[0] if input._a.ndim == 2 else 1))
    return _new(np.asarray(_gen(generator).multinomial(input._a, num_samples, replacement), np.int64))


def manual_seed(seed):
    return rng.default_generator.manual_seed(int(seed))


def seed():
    return rng.default_generator.seed()


def initial_seed():
    return rng.default_generator.initial_seed()


def get_rng_state():
    return _new(np.asarray(rng.default_generator.get_state(), np.uint8))


def set_rng_state(state):
    rng.default_generator.set_state(state._a)


def Generator(device="cpu"):
    return rng.Generator()


