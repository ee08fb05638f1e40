"""torch.* beyond the ops: creation (re-exported from creation.py), grad mode, Variable,
torch.autograd.functional (jacobian, hessian), gradcheck, printing options."""
import numpy as np

from gradrepl.engine import printing
from gradrepl.engine.autograd import GRAD
from gradrepl.engine.backward import grad as autograd_grad
from gradrepl.engine.creation import (Generator, arange, as_tensor, asarray, bernoulli, empty, empty_like, eye,  # noqa: F401
                                      full, full_like, get_rng_state, initial_seed, legacy_tensor, linspace,
                                      manual_seed, multinomial, normal, ones, ones_like, rand, rand_like, randint,
                                      randint_like, randn, randn_like, randperm, seed, set_rng_state, tensor, zeros,
                                      zeros_like)
from gradrepl.engine import dtypes as D
from gradrepl.engine import forward_ad
from gradrepl.engine.ops.sampling import uniform_
from gradrepl.engine.ops.shape import stack
from gradrepl.engine.tensor import INFERENCE_MODE, PARAMETERS, Size, Tensor, _new
from gradrepl.engine.util import broadcast_shape, pytype, warn


def numel(input):
    return input.numel()


def is_tensor(obj):
    return type(obj) is Tensor


def is_floating_point(input):
    return input.is_floating_point()


def broadcast_shapes(*shapes):
    res = ()
    for s in shapes:
        res = broadcast_shape(tuple(res), tuple(s))
    return Size(res)


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    # a negative precision is PyTorch's too: every later print of non-integral floats fails in format()
    for name, value, low, cap in (("precision", precision, -1000, 1000), ("edgeitems", edgeitems, 0, 10_000),
                                  ("linewidth", linewidth, 0, 100_000)):
        if value is not None and not (isinstance(value, int) and low <= value <= cap):
            raise ValueError(f"set_printoptions: {name} must be an integer from {max(low, 0)} to {cap} in gradrepl")
    if threshold is not None and (type(threshold) not in (int, float, bool) or threshold != threshold):
        # checked here: a bad threshold would break every later print (PyTorch fails there)
        raise TypeError(f"set_printoptions: threshold must be a number, not "
                        f"{type(threshold).__name__}")
    printing.set_printoptions(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth,
                              profile=profile, sci_mode=sci_mode)


def swap_tensors(t1, t2):
    """torch.utils.swap_tensors: the two tensor objects exchange everything they hold (data,
    autograd state, being a Parameter), so every reference to t1 now sees t2's tensor."""
    for name, t in (("t1", t1), ("t2", t2)):
        if type(t) is not Tensor:   # PyTorch: AttributeError on `_use_count`, which gradrepl won't name
            raise TypeError(f"swap_tensors(): argument '{name}' must be Tensor, not {pytype(t)}")
    for slot in Tensor.__slots__:
        if slot != "__weakref__":
            a, b = getattr(t1, slot), getattr(t2, slot)
            setattr(t1, slot, b)
            setattr(t2, slot, a)
    for t in (t1, t2):
        node = t._acc() if t._acc is not None else None
        if node is not None:        # a leaf's AccumulateGrad follows its tensor
            node.variable = t
    p1, p2 = PARAMETERS.pop(id(t1), None), PARAMETERS.pop(id(t2), None)
    if p1 is not None:
        PARAMETERS[id(t2)] = t2
    if p2 is not None:
        PARAMETERS[id(t1)] = t1


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


class OnceDifferentiable:
    """torch.autograd.function.once_differentiable: a custom Function's backward decorated
    with it runs without recording a graph."""

    __slots__ = ()

    def __call__(self, fn):
        return GradModeFunction(fn, False, "once_differentiable")

    def __repr__(self):
        return f"<function once_differentiable at {id(self):#x}>"


once_differentiable = OnceDifferentiable()


class _Switch(_GradMode):
    """no_grad / enable_grad: classes, as PyTorch's; `@torch.no_grad` without the call decorates too."""

    __slots__ = ()
    gradrepl_decorator = True   # `@torch.no_grad` (lang.compiler.decorator_ok)
    enabled = None              # the grad mode the subclass switches to

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)

    def __init__(self, orig_func=None):
        super().__init__(self.enabled, type(self).__name__)


class no_grad(_Switch):
    __slots__ = ()
    enabled = False


class enable_grad(_Switch):
    __slots__ = ()
    enabled = True


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


class inference_mode(_GradMode):
    """torch.inference_mode(mode=True): no_grad, and tensors made inside are inference tensors
    (tensor.INFERENCE) that autograd later refuses to record or to change in place."""

    __slots__ = ("_inf_prev",)
    gradrepl_decorator = True

    def __new__(cls, mode=True):
        if isinstance(mode, (bool, int)):
            return super().__new__(cls)
        return cls()(mode)      # `@torch.inference_mode` without the call

    def __init__(self, mode=True):
        super().__init__(not mode, "inference_mode")
        self._inf_prev = []

    def __enter__(self):
        self._inf_prev.append(INFERENCE_MODE[0])
        INFERENCE_MODE[0] = not self._mode
        return super().__enter__()

    def __exit__(self, *exc):
        INFERENCE_MODE[0] = self._inf_prev.pop() if self._inf_prev else False
        return super().__exit__(*exc)

    def __call__(self, fn):
        return InferenceModeFunction(fn, self._mode, self._kind)

    def clone(self):
        return inference_mode(not self._mode)


class InferenceModeFunction(GradModeFunction):
    __slots__ = ()

    def __call__(self, *args, **kwargs):
        prev = INFERENCE_MODE[0]
        INFERENCE_MODE[0] = not self._mode
        try:
            return GradModeFunction.__call__(self, *args, **kwargs)
        finally:
            INFERENCE_MODE[0] = prev


def is_inference_mode_enabled():
    return INFERENCE_MODE[0]


def is_grad_enabled():
    return GRAD[0]


# ================================================================ autograd
def Variable(data, requires_grad=False, volatile=False):
    """The deprecated torch.autograd.Variable: returns a Tensor (PyTorch >= 0.4)."""
    if type(data) is not Tensor:
        raise TypeError(f"Variable data has to be a tensor, but got {pytype(data)}")
    if volatile:
        warn("UserWarning", "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.")
    t = _new(data._a)
    t._ver = data._ver
    if requires_grad:
        t.requires_grad = True
    return t


def variable(*args, **kwargs):
    """torch.autograd.variable: removed; PyTorch raises at any call."""
    raise RuntimeError("torch.autograd.variable(...) is deprecated, use torch.tensor(...) instead")


MULTITHREADING = [True]   # torch.autograd.set_multithreading_enabled (gradrepl's backward is one thread anyway)


def is_multithreading_enabled():
    return MULTITHREADING[0]


def is_view_replay_enabled():
    """False: PyTorch replays views only under torch.autograd._force_original_view_tracking."""
    return False


class set_multithreading_enabled:
    """torch.autograd.set_multithreading_enabled(mode): takes effect at once, and as a
    context restores the mode it found on exit."""

    __slots__ = ("mode", "prev")

    def __init__(self, mode):
        self.mode = bool(mode)
        self.prev = MULTITHREADING[0]
        MULTITHREADING[0] = self.mode

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        MULTITHREADING[0] = self.prev
        return False

    def clone(self):
        return set_multithreading_enabled(self.mode)

    def __repr__(self):
        return f"<torch.autograd.grad_mode.set_multithreading_enabled object at {id(self):#x}>"


def _is_float(t):
    return t._a.dtype.kind in "fV"


def tensor_tuple(value, arg_name, fn_name):
    """torch.autograd.functional's _as_tuple: (was it a tuple, the tuple of tensors), with
    PyTorch's TypeError for anything else (a list is one wrong value, not a sequence)."""
    is_tuple = type(value) is tuple
    values = value if is_tuple else (value,)
    for i, el in enumerate(values):
        if type(el) is not Tensor:
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"the {where} has type <class '{pytype(el)}'>.")
    return is_tuple, values


def validate_v(v, other, is_other_tuple):
    """torch.autograd.functional's _validate_v: one v per tensor of other, of its size."""
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.shape != el_other.shape:
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.shape} but got {el_v.shape}.")


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """torch.autograd.functional.jacobian, reverse mode, row by row as PyTorch's loop: with
    create_graph the rows stay differentiable (stack(...).view(...): ViewBackward0)."""
    in_tuple, ins = tensor_tuple(inputs, "inputs", "jacobian")
    single = not in_tuple
    with enable_grad():
        # PyTorch's _grad_preprocess: a view keeps the graph to the caller's tensor
        xs = [x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True) for x in ins]
        out = func(*xs)
        out_tuple, outs = tensor_tuple(out, "outputs of the user-provided function", "jacobian")
        rows = []
        for o in outs:
            cols = [[] for _ in xs]
            flat = o.reshape(-1)
            for k in range(o.numel()):
                gs = autograd_grad(flat[k], xs, retain_graph=True, create_graph=create_graph, allow_unused=True) \
                    if o.requires_grad else [None] * len(xs)
                for col, g, x in zip(cols, gs, xs):
                    col.append(zeros_like(x) if g is None else g)
            per_in = []
            for col, x in zip(cols, xs):
                shape = tuple(o.shape) + tuple(x.shape)
                block = stack(col, 0).view(shape) if col else zeros(*shape, dtype=x.dtype)
                per_in.append(block if create_graph else block.detach())
            rows.append(per_in[0] if single else tuple(per_in))
    return tuple(rows) if out_tuple else rows[0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """torch.autograd.functional.hessian: the jacobian of the jacobian (the inner one with create_graph)."""
    tensor_tuple(inputs, "inputs", "hessian")

    def single_output(*xs):
        out = func(*xs)
        if tensor_tuple(out, "outputs of the user-provided function", "hessian")[0]:
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*xs):
        return jacobian(single_output, xs[0] if type(inputs) is Tensor else xs, create_graph=True)

    return jacobian(jac_func, inputs, create_graph=create_graph)


def _outputs(value):
    return [value] if type(value) is Tensor else list(value)


def gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **kw):
    """Compare autograd with central finite differences (float64 inputs expected, as PyTorch warns).
    A function of several outputs is checked output by output, as PyTorch's slow mode does."""
    ins = [inputs] if type(inputs) is Tensor else list(inputs)
    where = [i for i, x in enumerate(ins) if type(x) is Tensor and x.requires_grad]
    tensors = [ins[i] for i in where]
    out = func(*ins)
    outs = _outputs(out)
    checks = []   # (message prefix, per output: per input jacobian)

    def with_inputs(*xs):
        """func with the differentiated inputs replaced; non-tensor inputs (a custom
        Function's constant) stay in their places."""
        args = list(ins)
        for i, x in zip(where, xs):
            args[i] = x
        return func(*args)

    if kw.get("check_backward_ad", True):
        analytical = jacobian(with_inputs, tuple(tensors))
        checks.append(("Jacobian", [analytical] if type(out) is Tensor else list(analytical)))
    if kw.get("check_forward_ad", False):
        checks.append(("Jacobian computed with forward mode", _forward_jacobian(func, ins, tensors, outs)))
    for j, x in enumerate(tensors):
        flat = x._a.reshape(-1)
        nums = [np.zeros((o._a.size, flat.size)) for o in outs]
        for k in range(flat.size):
            orig = flat[k]
            flat[k] = orig + eps
            plus = [o._a.astype(np.float64).reshape(-1) for o in _outputs(func(*ins))]
            flat[k] = orig - eps
            minus = [o._a.astype(np.float64).reshape(-1) for o in _outputs(func(*ins))]
            flat[k] = orig
            for num, p, m in zip(nums, plus, minus):
                num[:, k] = (p - m) / (2 * eps)
        for what, rows in checks:
            for i, (o, num) in enumerate(zip(outs, nums)):
                ana = rows[i][j]._a.reshape(o._a.size, -1).astype(np.float64)
                if not np.allclose(ana, num, rtol=rtol, atol=atol):
                    if raise_exception:
                        raise GradcheckError(
                            f"{what} mismatch for output {i} with respect to input {j},\nnumerical:{_new(num)!r}\n"
                            f"analytical:{_new(ana)!r}\n")
                    return False
    return True


def _forward_jacobian(func, ins, tensors, outs):
    """Per output, per input: the Jacobian column by column from forward AD (one dual
    evaluation per input element)."""
    rows = [[np.zeros((o._a.size, x._a.size)) for x in tensors] for o in outs]
    for j, x in enumerate(tensors):
        for k in range(x._a.size):
            e = np.zeros(x._a.size, x._a.dtype)
            e[k] = 1
            with forward_ad.dual_level():
                dual = forward_ad.make_dual(x, _new(e.reshape(x._a.shape)))
                res = _outputs(func(*[dual if a is x else a for a in ins]))
                for i, o in enumerate(res):
                    t = forward_ad.unpack_dual(o).tangent
                    if t is not None:
                        rows[i][j][:, k] = t._a.astype(np.float64).reshape(-1)
    return [[_new(m) for m in row] for row in rows]


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, **kw):
    """torch.autograd.gradgradcheck: gradcheck of the function's vector-Jacobian product with
    respect to its inputs and the gradients of its outputs; missing grad_outputs are drawn as
    PyTorch's make_tensor draws them (uniform in [-1, 1), so the generator advances alike)."""
    tupled = tuple([inputs] if type(inputs) is Tensor else inputs)
    if grad_outputs is None:
        outs = [o for o in _outputs(func(*tupled)) if o.requires_grad]
        grads = []
        for o in outs:
            dtype = o.dtype if o.is_floating_point() or o.is_complex() else D.float64
            g = empty(tuple(o.shape), dtype=dtype)
            uniform_(g, -1, 1)
            g.requires_grad = True
            grads.append(g)
        tupled_grads = tuple(grads)
    else:
        tupled_grads = tuple([grad_outputs] if type(grad_outputs) is Tensor else grad_outputs)
    n_out = len(tupled_grads)
    diff_in = {i for i, x in enumerate(tupled) if type(x) is Tensor and x.requires_grad}

    def new_func(*args):
        input_args = args[:-n_out] if n_out else args
        outs = [o for o in _outputs(func(*input_args)) if o.requires_grad]
        diff_args = [x for i, x in enumerate(input_args) if i in diff_in]
        gs = autograd_grad(outs, diff_args, list(args[-n_out:]) if n_out else None, create_graph=True,
                           allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(new_func, tupled + tupled_grads, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


class GradcheckError(RuntimeError):
    pass


