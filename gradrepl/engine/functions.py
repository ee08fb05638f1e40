"""torch.* functions: creation, math, grad mode, autograd helpers, torch.nn.functional."""
import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine import tensor as T
from gradrepl.engine.autograd import GRAD
from gradrepl.engine.tensor import Size, Tensor, _new, _pytype, _result, _shape_args, wrap
from gradrepl.limits import check_numel

# ================================================================ creation


def _dtype_arg(dtype, default=None):
    if dtype is None:
        return default
    if isinstance(dtype, D.DType):
        return dtype
    raise TypeError(f"dtype must be torch.dtype, not {_pytype(dtype)}")


def _finish(arr, requires_grad):
    t = _new(arr)
    if requires_grad:
        if arr.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._rg = True
    return t


def _check_bytes(shape, dtype):
    n = T._prod(shape)
    check_numel(n, shape)
    return n


def _size_args(size, fn_name):
    shape = _shape_args(size)
    for s in shape:
        if s < 0:
            if fn_name == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {T._shape_list(shape)}")
    return shape


def _infer_data(data):
    """Shape and flat scalars of nested lists, with PyTorch's messages for ragged data."""
    def shape_of(x, depth):
        if type(x) is Tensor:
            return tuple(x._a.shape)
        if isinstance(x, (list, tuple)):
            if not x:
                return (0,)
            first = shape_of(x[0], depth + 1)
            for y in x[1:]:
                s = shape_of(y, depth + 1)
                if s != first:
                    if isinstance(y, (list, tuple)) or type(y) is Tensor:
                        got = len(y) if isinstance(y, (list, tuple)) else (y._a.shape[0] if y._a.ndim else 0)
                        if first and got != first[0]:
                            raise ValueError(f"expected sequence of length {first[0]} at dim {depth + 1} (got {got})")
                    raise TypeError("not a sequence" if first else f"expected sequence of length 0 at dim {depth + 1}")
            return (len(x),) + first
        return ()
    shape = shape_of(data, 0)
    check_numel(T._prod(shape), shape)
    return shape


def _flat_values(data):
    kinds = set()
    out = []
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(reversed(x))
        elif type(x) is Tensor:
            out.extend(x._a.reshape(-1).tolist())
            kinds.add(x._a.dtype.kind)
        elif isinstance(x, bool):
            out.append(x)
            kinds.add("b")
        elif isinstance(x, int):
            out.append(x)
            kinds.add("i")
        elif isinstance(x, float):
            out.append(x)
            kinds.add("f")
        else:
            if x is None:
                raise RuntimeError("Could not infer dtype of NoneType")
            raise TypeError(f"new(): invalid data type '{_pytype(x)}'")
    return out, kinds


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    dtype = _dtype_arg(dtype)
    if type(data) is Tensor:
        arr = data._a.copy()
        if dtype is not None:
            arr = arr.astype(dtype.np)
        return _finish(arr, requires_grad)
    if isinstance(data, (bool, int, float)):
        kind = D.scalar_kind(data)
        dt = dtype or (D.bool_, D.int64, D.DEFAULT_FLOAT[0])[kind]
        if kind == 1 and dtype is None and not -2 ** 63 <= data < 2 ** 63:
            raise RuntimeError("Overflow when unpacking long")
        return _finish(np.asarray(data, dt.np), requires_grad)
    if data is None:
        raise RuntimeError("Could not infer dtype of NoneType")
    if not isinstance(data, (list, tuple)):
        raise TypeError(f"new(): invalid data type '{_pytype(data)}'")
    shape = _infer_data(data)
    flat, kinds = _flat_values(data)
    if dtype is None:
        if "f" in kinds:
            dtype = D.DEFAULT_FLOAT[0]
        elif "i" in kinds or "u" in kinds:
            dtype = D.int64
        elif "b" in kinds:
            dtype = D.bool_
        else:
            dtype = D.DEFAULT_FLOAT[0]
    if dtype.is_floating_point:
        arr = np.array(flat, dtype=np.float64).astype(dtype.np)
    else:
        try:
            arr = np.array(flat, dtype=dtype.np if dtype is not D.int64 else np.int64)
        except OverflowError:
            raise RuntimeError("Overflow when unpacking long") from None
    return _finish(arr.reshape(shape), requires_grad)


def as_tensor(data, dtype=None, device=None):
    if type(data) is Tensor and (dtype is None or dtype is data.dtype):
        return data
    return tensor(data, dtype=dtype)


def legacy_tensor(*args, **kwargs):
    """torch.Tensor(...): float32 data from a sequence, or an uninitialised (here: zero) tensor of a shape."""
    if kwargs.get("requires_grad"):
        raise TypeError("new() received an invalid combination of arguments - got (requires_grad=bool)")
    if len(args) == 1 and isinstance(args[0], (list, tuple)) and (not args[0] or not isinstance(args[0][0], int) or
                                                                  isinstance(args[0], list)):
        return tensor(args[0], dtype=D.float32)
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
        return _finish(fill(shape, dt.np), requires_grad)
    return create


ones = _creator(np.ones)
zeros = _creator(np.zeros)
empty = _creator(np.zeros)
ones.__name__, zeros.__name__, empty.__name__ = "ones", "zeros", "empty"


def full(size, fill_value, dtype=None, requires_grad=False, device=None):
    shape = _size_args((size,) if isinstance(size, int) else size, "full")
    if type(fill_value) is Tensor:
        fill_value = fill_value.item()
    if not isinstance(fill_value, (bool, int, float)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not {_pytype(fill_value)}")
    if dtype is None:
        dtype = (D.bool_, D.int64, D.DEFAULT_FLOAT[0])[D.scalar_kind(fill_value)]
    _check_bytes(shape, dtype)
    return _finish(np.full(shape, fill_value, dtype.np), requires_grad)


def _like(fn):
    def like(input, dtype=None, requires_grad=False, device=None, memory_format=None, **kw):
        dt = _dtype_arg(dtype, input.dtype)
        return _finish(fn(input._a.shape, dt.np), requires_grad)
    return like


ones_like = _like(np.ones)
zeros_like = _like(np.zeros)
empty_like = _like(np.zeros)


def full_like(input, fill_value, dtype=None, requires_grad=False, device=None):
    dt = _dtype_arg(dtype, input.dtype)
    return _finish(np.full(input._a.shape, fill_value, dt.np), requires_grad)


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
    if dtype.is_floating_point:
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
        # PyTorch's CPU kernel: step from the start for the first half, from the end for the second
        step = (end - start) / (steps - 1)
        idx = np.arange(steps, dtype=np.float64)
        half = steps // 2
        arr = np.where(idx < half, start + step * idx, end - step * (steps - 1 - idx))
        if dt is D.float32:
            stepf = np.float32(step)
            i32 = idx.astype(np.float32)
            arr = np.where(idx < half, np.float32(start) + stepf * i32,
                           np.float32(end) - stepf * (np.float32(steps - 1) - i32))
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
    from gradrepl.engine import rng
    return generator if generator is not None else rng.default_generator


def _float_dtype(dtype):
    dt = _dtype_arg(dtype, D.DEFAULT_FLOAT[0])
    return dt


def rand(*size, generator=None, dtype=None, requires_grad=False, device=None):
    shape = _size_args(size, "rand")
    dt = _float_dtype(dtype)
    _check_bytes(shape, dt)
    return _finish(np.asarray(_gen(generator).rand(shape, dt.np), dt.np).reshape(shape), requires_grad)


def randn(*size, generator=None, dtype=None, requires_grad=False, device=None):
    shape = _size_args(size, "randn")
    dt = _float_dtype(dtype)
    _check_bytes(shape, dt)
    return _finish(np.asarray(_gen(generator).randn(shape, dt.np), dt.np).reshape(shape), requires_grad)


def randint(low, high=None, size=None, generator=None, dtype=None, requires_grad=False, device=None):
    if size is None and isinstance(high, (tuple, list)):
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing 1 required positional arguments: \"size\"")
    shape = _size_args(size, "randint")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    dt = _dtype_arg(dtype, D.int64)
    _check_bytes(shape, dt)
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
    dt = _float_dtype(dtype)
    return _finish(np.asarray(g.normal(shape, mean, std, dt.np), dt.np).reshape(shape), requires_grad)


def bernoulli(input, p=None, generator=None):
    g = _gen(generator)
    probs = input._a if p is None else p
    return _new(np.asarray(g.bernoulli(probs, input._a.shape, input._a.dtype), input._a.dtype))


def multinomial(input, num_samples, replacement=False, generator=None):
    return _new(np.asarray(_gen(generator).multinomial(input._a, num_samples, replacement), np.int64))


def manual_seed(seed):
    from gradrepl.engine import rng
    return rng.default_generator.manual_seed(int(seed))


def seed():
    from gradrepl.engine import rng
    return rng.default_generator.seed()


def initial_seed():
    from gradrepl.engine import rng
    return rng.default_generator.initial_seed()


def get_rng_state():
    from gradrepl.engine import rng
    return _new(np.asarray(rng.default_generator.get_state(), np.uint8))


def set_rng_state(state):
    from gradrepl.engine import rng
    rng.default_generator.set_state(state._a)


def Generator(device="cpu"):
    from gradrepl.engine import rng
    return rng.Generator()


# ================================================================ math
def _t(x):
    return x if type(x) is Tensor else T._as_tensor(x)


def add(input, other, alpha=1, out=None):
    return T.add(_t(input), other, alpha=alpha)


def sub(input, other, alpha=1, out=None):
    return T.sub(_t(input), other, alpha=alpha)


def mul(input, other, out=None):
    return T.mul(_t(input), other)


def div(input, other, rounding_mode=None, out=None):
    return T.div(_t(input), other, rounding_mode=rounding_mode)


def pow(input, exponent, out=None):
    if type(input) is not Tensor:
        return T.rpow(_t(exponent), input)
    return T.pow(input, exponent)


def _method(name):
    def fn(input, *args, **kwargs):
        return getattr(_t(input), name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    return fn


_METHOD_FUNCS = ("abs exp expm1 log log2 log10 log1p sqrt rsqrt reciprocal sin cos tan sinh cosh asin acos atan tanh "
                 "sigmoid relu sign square floor ceil round neg negative clamp clip sum mean prod max min argmax argmin "
                 "amax norm std var softmax log_softmax cumsum logsumexp reshape flatten squeeze unsqueeze t transpose "
                 "permute clone detach flip split chunk unbind gather matmul mm mv dot all any isnan isinf isfinite "
                 "logical_not masked_fill numel index_select narrow select eq ne lt le gt ge allclose isclose equal "
                 "std var").split()

METHOD_FUNCS = {name: _method(name) for name in _METHOD_FUNCS}


def maximum(input, other):
    return T.maximum(input, other)


def minimum(input, other):
    return T.minimum(input, other)


def where(condition, input=None, other=None):
    if input is None and other is None:
        return tuple(_new(np.asarray(i, np.int64)) for i in np.nonzero(condition._a))
    if input is None or other is None:
        got = ", ".join(_pytype(a) for a in (condition, input, other) if a is not None)
        raise TypeError(f"where() received an invalid combination of arguments - got ({got}), but expected one of:")
    c = condition._a.astype(bool)
    ti = _t(input) if type(input) is Tensor or type(other) is not Tensor else T._scalar_tensor(input, other)
    to = _t(other) if type(other) is Tensor else T._scalar_tensor(other, ti)
    rd = D.result_type((input if type(input) is Tensor else ti, other if type(other) is Tensor else to))
    xi, xo = ti._a.astype(rd.np, copy=False), to._a.astype(rd.np, copy=False)
    T._broadcast_shape(T._broadcast_shape(c.shape, xi.shape), xo.shape)   # PyTorch's message on mismatch
    out = np.where(c, xi, xo).astype(rd.np, copy=False)
    sa = ti._a.shape if ti.requires_grad else None
    sb = to._a.shape if to.requires_grad else None
    return _result(out, "WhereBackward0", (None, ti, to), (wrap(c),), (sa, sb))


def cat(tensors, dim=0, out=None):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"cat(): argument 'tensors' (position 1) must be tuple of Tensors, not {_pytype(tensors)}")
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if type(t) is not Tensor:
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {_pytype(t)}")
    for i, t in enumerate(tensors):
        if t._a.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    ref = tensors[0]._a
    d = T._dim(dim, ref.ndim)
    for i, t in enumerate(tensors[1:], 1):
        a = t._a
        if a.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} and {a.ndim}")
        for k in range(ref.ndim):
            if k != d and a.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size {ref.shape[k]} "
                                   f"but got size {a.shape[k]} for tensor number {i} in the list.")
    rd = D.result_type([t for t in tensors])
    arrs = [t._a.astype(rd.np, copy=False) for t in tensors]
    check_numel(sum(a.size for a in arrs))
    out = np.concatenate(arrs, axis=d)
    t = _new(out)
    if GRAD[0] and any(x.requires_grad for x in tensors):
        from gradrepl.engine.autograd import Node, edge_of
        from gradrepl.engine.derivatives import SPECS
        t._fn = Node(SPECS["CatBackward0"], tuple(edge_of(x) for x in tensors), (),
                     (d, [x._a.shape[d] for x in tensors]))
    return t


concat = cat


def stack(tensors, dim=0, out=None):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(tensors[1:], 1):
        if t._a.shape != tensors[0]._a.shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {T._shape_list(tensors[0]._a.shape)} "
                               f"at entry 0 and {T._shape_list(t._a.shape)} at entry {i}")
    d = T._dim(dim, tensors[0]._a.ndim + 1)
    rd = D.result_type(tensors)
    out = np.stack([t._a.astype(rd.np, copy=False) for t in tensors], axis=d)
    t = _new(out)
    if GRAD[0] and any(x.requires_grad for x in tensors):
        from gradrepl.engine.autograd import Node, edge_of
        from gradrepl.engine.derivatives import SPECS
        t._fn = Node(SPECS["StackBackward0"], tuple(edge_of(x) for x in tensors), (), (d, len(tensors)))
    return t


def outer(a, b):
    return a.reshape(-1, 1) * b.reshape(1, -1)


ger = outer


def numel(input):
    return input.numel()


def is_tensor(obj):
    return type(obj) is Tensor


def is_floating_point(input):
    return input.is_floating_point()


def broadcast_shapes(*shapes):
    res = ()
    for s in shapes:
        res = T._broadcast_shape(tuple(res), tuple(s))
    return Size(res)


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    from gradrepl.engine import printing
    for name, value, cap in (("precision", precision, 1000), ("edgeitems", edgeitems, 10_000),
                             ("linewidth", linewidth, 100_000)):
        if value is not None and not (isinstance(value, int) and 0 <= value <= cap):
            raise ValueError(f"set_printoptions: {name} must be an integer from 0 to {cap} in gradrepl")
    printing.set_printoptions(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth,
                              profile=profile, sci_mode=sci_mode)


# ================================================================ grad mode
class _GradMode:
    """no_grad / enable_grad / set_grad_enabled: context managers and decorators."""

    __slots__ = ("_mode", "_prev", "_kind")

    def __init__(self, mode, kind):
        self._mode = mode
        self._kind = kind
        self._prev = []

    def __enter__(self):
        self._prev.append(GRAD[0])
        GRAD[0] = self._mode
        return None

    def __exit__(self, *exc):
        GRAD[0] = self._prev.pop() if self._prev else True
        return False

    def __call__(self, fn):
        return GradModeFunction(fn, self._mode, self._kind)

    def clone(self):
        return _GradMode(self._mode, self._kind)

    def __repr__(self):
        return f"<torch.autograd.grad_mode.{self._kind} object at {id(self):#x}>"


class GradModeFunction:
    """A function decorated with @torch.no_grad() and friends: runs it under that grad mode."""

    __slots__ = ("_fn", "_mode", "_kind")

    def __init__(self, fn, mode, kind):
        self._fn = fn
        self._mode = mode
        self._kind = kind

    def __call__(self, *args, **kwargs):
        prev = GRAD[0]
        GRAD[0] = self._mode
        try:
            return self._fn(*args, **kwargs)
        finally:
            GRAD[0] = prev

    def __repr__(self):
        return repr(self._fn)


def no_grad():
    return _GradMode(False, "no_grad")


def enable_grad():
    return _GradMode(True, "enable_grad")


class set_grad_enabled(_GradMode):
    __slots__ = ()

    def __init__(self, mode):
        super().__init__(bool(mode), "set_grad_enabled")
        # like PyTorch: takes effect at once, even outside `with`
        self._prev.append(GRAD[0])
        GRAD[0] = bool(mode)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        GRAD[0] = self._prev.pop() if self._prev else True
        return False

    def __repr__(self):
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self._mode})"


def inference_mode(mode=True):
    return _GradMode(not mode, "inference_mode")


def is_grad_enabled():
    return GRAD[0]


# ================================================================ autograd
def Variable(data, requires_grad=False, volatile=False):
    """The deprecated torch.autograd.Variable: returns a Tensor (PyTorch >= 0.4)."""
    if type(data) is not Tensor:
        raise TypeError(f"Variable data has to be a tensor, but got {_pytype(data)}")
    t = _new(data._a)
    t._ver = data._ver
    if requires_grad:
        t.requires_grad = True
    return t


def _is_float(t):
    return t._a.dtype.kind == "f"


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    single = type(inputs) is Tensor
    ins = [inputs] if single else list(inputs)
    xs = [x.detach().requires_grad_(True) for x in ins]
    with enable_grad():
        out = func(*xs)
    single_out = type(out) is Tensor
    outs = [out] if single_out else list(out)
    rows = []
    for o in outs:
        per_in = []
        flat = o.reshape(-1)
        jac = [np.zeros((o._a.size,) + x._a.shape, x._a.dtype) for x in xs]
        for k in range(flat._a.size):
            if not o.requires_grad:
                break
            gs = T.grad(flat[k], xs, retain_graph=True, allow_unused=True)
            for j, g in enumerate(gs):
                if g is not None:
                    jac[j][k] = g._a
        for j, x in enumerate(xs):
            per_in.append(_new(jac[j].reshape(o._a.shape + x._a.shape)))
        rows.append(per_in[0] if single else tuple(per_in))
    return rows[0] if single_out else tuple(rows)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    single = type(inputs) is Tensor
    ins = [inputs] if single else list(inputs)

    def grad_fn(*xs):
        with enable_grad():
            out = func(*xs)
            if out._a.size != 1:
                raise RuntimeError("The function given to hessian should return a single element Tensor")
            gs = T.grad(out, xs, create_graph=True, allow_unused=True)
        return gs[0] if single else gs

    if single:
        return jacobian(grad_fn, ins[0])
    return jacobian(grad_fn, tuple(ins))


def gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **kw):
    """Compare autograd with central finite differences (float64 inputs expected, as PyTorch warns)."""
    ins = [inputs] if type(inputs) is Tensor else list(inputs)
    tensors = [x for x in ins if type(x) is Tensor and x.requires_grad]
    analytical = jacobian(lambda *xs: func(*xs), tuple(tensors))
    for j, x in enumerate(tensors):
        base = x._a.copy()
        with no_grad():
            out0 = func(*ins)
        n_out = out0._a.size
        num = np.zeros((n_out, x._a.size))
        for k in range(x._a.size):
            flat = x._a.reshape(-1)
            orig = base.reshape(-1)[k]
            flat[k] = orig + eps
            with no_grad():
                plus = func(*ins)._a.astype(np.float64).reshape(-1)
            flat[k] = orig - eps
            with no_grad():
                minus = func(*ins)._a.astype(np.float64).reshape(-1)
            flat[k] = orig
            num[:, k] = (plus - minus) / (2 * eps)
        ana = analytical[0][j]._a.reshape(n_out, -1).astype(np.float64) if isinstance(analytical[0], tuple) else \
            analytical[j]._a.reshape(n_out, -1).astype(np.float64)
        if not np.allclose(ana, num, rtol=rtol, atol=atol):
            if raise_exception:
                raise GradcheckError(
                    f"Jacobian mismatch for output 0 with respect to input {j},\nnumerical:{_new(num)!r}\n"
                    f"analytical:{_new(ana)!r}\n")
            return False
    return True


class GradcheckError(RuntimeError):
    pass


# ================================================================ torch.nn.functional
def _reduce(t, reduction):
    if reduction == "mean":
        return t.mean()
    if reduction == "sum":
        return t.sum()
    if reduction == "none":
        return t
    raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if input._a.shape != target._a.shape:
        T._broadcast_shape(input._a.shape, target._a.shape)
    a, b = T._operands(input, target)
    d = a - b
    if reduction == "none":
        out = d * d
    elif reduction == "sum":
        out = np.asarray(np.sum(d * d), a.dtype)
    else:
        out = np.asarray(np.mean(d * d), a.dtype)
    return _result(np.asarray(out), "MseLossBackward0", (input, target), (input, target), reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _reduce((input - target).abs(), reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    x = input._a
    t = target._a.astype(np.int64)
    if x.ndim not in (1, 2):
        raise ValueError(f"Expected 1 or 2 dimensions (got {x.ndim})")
    w = None if weight is None else weight._a
    if x.ndim == 2:
        if t.shape[0] != x.shape[0]:
            raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({t.shape[0]}).")
        valid = t != ignore_index
        tt = np.where(valid, t, 0)
        if (tt >= x.shape[1]).any() or (tt < 0).any():
            raise IndexError(f"Target {int(tt.max())} is out of bounds.")
        picked = x[np.arange(x.shape[0]), tt]
        ww = np.ones_like(picked) if w is None else w[tt].astype(x.dtype)
        ww = np.where(valid, ww, 0).astype(x.dtype)
        losses = -picked * ww
        total = ww.sum()
    else:
        valid = int(t) != ignore_index
        picked = x[int(t)] if valid else x.dtype.type(0)
        ww = x.dtype.type(1 if w is None else w[int(t)]) if valid else x.dtype.type(0)
        losses = np.asarray(-picked * ww)
        total = ww
    if reduction == "none":
        out = losses
    elif reduction == "sum":
        out = np.asarray(losses.sum(), x.dtype)
    else:
        out = np.asarray(losses.sum() / total, x.dtype)
    return _result(np.asarray(out, x.dtype), "NllLossBackward0", (input,), (target,),
                   (x.shape, reduction, w, ignore_index, total))


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    if target.dtype.is_floating_point:
        return _reduce(-(target * input.log_softmax(1 if input.ndim > 1 else 0)).sum(1 if input.ndim > 1 else 0),
                       reduction)
    return nll_loss(input.log_softmax(1 if input.ndim > 1 else 0), target, weight, ignore_index=ignore_index,
                    reduction=reduction)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    x, y = input._a, target._a
    if x.shape != y.shape:
        raise ValueError(f"Using a target size ({Size(y.shape)!r}) that is different to the input size "
                         f"({Size(x.shape)!r}) is deprecated. Please ensure they have the same size.")
    if (x < 0).any() or (x > 1).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore"):
        lx = np.maximum(np.log(x), -100)
        l1x = np.maximum(np.log(1 - x), -100)
    losses = -(y * lx + (1 - y) * l1x)
    if weight is not None:
        losses = losses * weight._a
    if reduction == "none":
        out = losses
    elif reduction == "sum":
        out = np.asarray(losses.sum(), x.dtype)
    else:
        out = np.asarray(losses.mean(), x.dtype)
    return _result(np.asarray(out, x.dtype), "BinaryCrossEntropyBackward0", (input,), (input, target), reduction)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    x = input._a
    out = np.where(x > 0, x, x * negative_slope).astype(x.dtype)
    return _result(out, "LeakyReluBackward0", (input,), (input,), negative_slope)


def dropout(input, p=0.5, training=True, inplace=False):
    if not training or p == 0:
        return input
    if p == 1:
        return input * 0
    from gradrepl.engine import rng
    # the mask is already scaled by 1 / (1 - p), as PyTorch's
    mask = rng.default_generator.dropout_mask(input._a.shape, p, input._a.dtype)
    return input * _new(np.asarray(mask, input._a.dtype))


def F_softmax(input, dim=None, dtype=None):
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return input.softmax(dim)


def F_log_softmax(input, dim=None, dtype=None):
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return input.log_softmax(dim)
