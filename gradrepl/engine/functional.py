"""torch.autograd.functional (vjp, jvp, hvp, vhp), torch.func (grad, grad_and_value, vmap,
jacrev), anomaly detection and post-accumulate-grad hooks: built on the engine's backward
(backward.grad), as PyTorch builds them on autograd.grad."""
import numpy as np

from gradrepl.engine import autograd as A
from gradrepl.engine import forward_ad as FAD
from gradrepl.engine.backward import grad as autograd_grad
from gradrepl.engine.functions import enable_grad, hessian, jacobian, tensor_tuple, validate_v
from gradrepl.engine.ops.shape import stack
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import pytype, warn


def _as_tuple(x):
    return (x,) if type(x) is Tensor else tuple(x)


def _prepare(inputs):
    return tuple(x.detach().requires_grad_(True) for x in inputs)


def _zeros_for(gs, xs):
    return tuple(_new(np.zeros_like(x._a)) if g is None else g for g, x in zip(gs, xs))


def _out(single, values):
    return values[0] if single else tuple(values)


def _vectors(v, other, is_other_tuple, fn_name, none_message):
    """v as a tuple matching other (PyTorch's _as_tuple + _validate_v), or None when allowed."""
    if v is None:
        if len(other) != 1 or other[0]._a.size != 1:
            raise RuntimeError(none_message)
        return None
    vs = tensor_tuple(v, "v", fn_name)[1]
    validate_v(vs, other, is_other_tuple)
    return vs


# ================================================================ torch.autograd.functional
def vjp(func, inputs, v=None, create_graph=False, strict=False):
    in_tuple, xs = tensor_tuple(inputs, "inputs", "vjp")
    xs = _prepare(xs)
    with enable_grad():
        out = func(*xs)
    out_tuple, outs = tensor_tuple(out, "outputs of the user-provided function", "vjp")
    vs = _vectors(v, outs, out_tuple, "vjp", "The vector v can only be None if the user-provided function "
                  "returns a single Tensor with a single element.")
    live = [(o, None if vs is None else vs[i]) for i, o in enumerate(outs) if o.requires_grad]
    if live:
        gs = autograd_grad([o for o, _ in live], xs, None if vs is None else [g for _, g in live],
                           create_graph=create_graph, allow_unused=True)
    else:
        gs = (None,) * len(xs)
    res = _zeros_for(gs, xs)
    detached = tuple(o.detach() for o in outs)
    return _out(not out_tuple, detached), _out(not in_tuple, res)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    in_tuple, xs = tensor_tuple(inputs, "inputs", "jvp")
    xs = tuple(x.detach() for x in xs)
    vs = _vectors(v, xs, in_tuple, "jvp", "The vector v can only be None if the input to the user-provided "
                  "function is a single Tensor with a single element.")
    if vs is None:
        vs = [_new(np.ones_like(x._a)) for x in xs]
    out = func(*xs)
    out_tuple, outs = tensor_tuple(out, "outputs of the user-provided function", "jvp")
    jac = jacobian(func, xs if in_tuple else xs[0])
    rows = list(jac) if out_tuple else [jac]
    res = []
    for o, row in zip(outs, rows):
        per_in = list(row) if in_tuple else [row]
        acc = np.zeros(o._a.shape, o._a.dtype)
        for k, (j, x) in enumerate(zip(per_in, xs)):
            n = x._a.size
            acc = acc + (j._a.reshape(o._a.size, n) @ vs[k]._a.reshape(n)).reshape(o._a.shape)
        res.append(_new(acc.astype(o._a.dtype)))
    detached = tuple(o.detach() for o in outs)
    return _out(not out_tuple, detached), _out(not out_tuple, res)


def _hessian_product(name, func, inputs, v):
    """hvp and vhp: the Hessian of a C2 function is symmetric, so both are H @ v."""
    in_tuple, xs = tensor_tuple(inputs, "inputs", name)
    xs = tuple(x.detach() for x in xs)
    vs = _vectors(v, xs, in_tuple, name, "The vector v can only be None if the input to the user-provided "
                  "function is a single Tensor with a single element.")
    if vs is None:
        vs = [_new(np.ones_like(x._a)) for x in xs]
    out = func(*xs)
    if tensor_tuple(out, "outputs of the user-provided function", name)[0]:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if out._a.size != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should contain a single element")
    H = hessian(func, xs if in_tuple else xs[0])
    res = []
    for i, x in enumerate(xs):
        acc = np.zeros(x._a.shape, x._a.dtype)
        for j, y in enumerate(xs):
            block = H[i][j] if in_tuple else H
            acc = acc + (block._a.reshape(x._a.size, y._a.size) @ vs[j]._a.reshape(-1)).reshape(x._a.shape)
        res.append(_new(acc.astype(x._a.dtype)))
    return out.detach(), _out(not in_tuple, res)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    return _hessian_product("hvp", func, inputs, v)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    return _hessian_product("vhp", func, inputs, v)


# ================================================================ torch.func
def _tracked(args):
    return any(type(a) is Tensor and a.requires_grad for a in args)


def _leaves(tree):
    """The tensors of a pytree (a tensor, or dicts, lists and tuples of them) in order."""
    if type(tree) is Tensor:
        return [tree]
    if type(tree) is dict:
        return [t for v in tree.values() for t in _leaves(v)]
    if type(tree) in (list, tuple):
        return [t for v in tree for t in _leaves(v)]
    return []


def _rebuild(tree, leaves):
    """tree's structure with its tensors replaced, in order, by `leaves` (an iterator)."""
    if type(tree) is Tensor:
        return next(leaves)
    if type(tree) is dict:
        return {k: _rebuild(v, leaves) for k, v in tree.items()}
    if type(tree) in (list, tuple):
        return type(tree)(_rebuild(v, leaves) for v in tree)
    return tree


def _track(a):
    if not a.requires_grad:
        return a.detach().requires_grad_(True)
    return a.view_as(a) if a._fn is None else a


def _grad_call(func, argnums, has_aux, args, kwargs):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    outer = _tracked(_leaves(list(args)))
    args = list(args)
    for n in nums:
        a = args[n]
        if type(a) is Tensor:
            args[n] = _track(a)
        elif type(a) in (dict, list, tuple) and _leaves(a):
            args[n] = _rebuild(a, iter([_track(t) for t in _leaves(a)]))
        else:
            raise RuntimeError(f"grad(f)(*args): Expected args[{n}] to be a Tensor, got {pytype(a)}")
    with enable_grad():
        out = func(*args, **kwargs)
    aux = None
    if has_aux:
        out, aux = out
    if type(out) is not Tensor or out._a.size != 1:
        raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                           f"with {out.dim() if type(out) is Tensor else 0} dims. Maybe you wanted to use the vjp "
                           "or jacrev APIs instead?")
    targets = _leaves([args[n] for n in nums])
    if out.requires_grad:
        gs = autograd_grad(out, targets, create_graph=outer, allow_unused=True)
    else:
        gs = (None,) * len(targets)
    gs = _zeros_for(gs, targets)
    if not outer:
        gs = tuple(g.detach() for g in gs)
        out = out.detach()
    shaped = _rebuild([args[n] for n in nums], iter(gs))
    g = shaped[0] if isinstance(argnums, int) else tuple(shaped)
    return g, out, aux


class FuncTransform:
    """The function torch.func.grad(f) / vmap(f) returns: callable, prints as PyTorch's."""

    __slots__ = ("call", "label")

    def __init__(self, call, label):
        self.call = call
        self.label = label

    def __call__(self, *args, **kwargs):
        return self.call(*args, **kwargs)

    def __repr__(self):
        return f"<function {self.label} at {id(self):#x}>"


def func_grad(func, argnums=0, has_aux=False):
    def call(*args, **kwargs):
        g, _, aux = _grad_call(func, argnums, has_aux, args, kwargs)
        return (g, aux) if has_aux else g
    return FuncTransform(call, "grad.<locals>.wrapper")


def grad_and_value(func, argnums=0, has_aux=False):
    def call(*args, **kwargs):
        g, value, aux = _grad_call(func, argnums, has_aux, args, kwargs)
        return (g, (value, aux)) if has_aux else (g, value)
    return FuncTransform(call, "grad_and_value.<locals>.wrapper")


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    def call(*args):
        dims = in_dims if type(in_dims) in (tuple, list) else (in_dims,) * len(args)
        sizes = {t._a.shape[d] for a, d in zip(args, dims) if d is not None for t in _leaves(a)}
        if len(sizes) != 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sorted(sizes)} for the mapped dimension")
        n = sizes.pop()
        results = []
        for i in range(n):
            sliced = [a if d is None else _rebuild(a, iter([t.select(d, i) for t in _leaves(a)]))
                      for a, d in zip(args, dims)]
            if i < n - 1:
                A.VMAP_RETAIN[0] += 1
                try:
                    results.append(func(*sliced))
                finally:
                    A.VMAP_RETAIN[0] -= 1
            else:
                results.append(func(*sliced))
        first = results[0]
        if type(first) is dict:
            return {k: stack([_t(r[k]) for r in results], out_dims) for k in first}
        if type(first) is tuple:
            od = out_dims if type(out_dims) in (tuple, list) else (out_dims,) * len(first)
            return tuple(stack([_t(r[k]) for r in results], od[k]) for k in range(len(first)))
        return stack([_t(r) for r in results], out_dims)
    return FuncTransform(call, "vmap.<locals>.wrapped")


def _t(x):
    return x if type(x) is Tensor else _new(np.asarray(x))


def _only(func, args, nums):
    """func as a function of args[n] for n in nums, the other arguments held."""
    def partial(*chosen):
        full = list(args)
        for n, a in zip(nums, chosen):
            full[n] = a
        return func(*full)
    return partial


def _on_leaves(func, args, nums):
    """func as a function of the tensors of args[n] for n in nums (pytrees: dicts, lists and
    tuples of tensors, as torch.func takes a model's parameters), with those tensors."""
    chosen = [args[n] for n in nums]

    def flat(*leaves):
        full = list(args)
        for n, a in zip(nums, _rebuild(chosen, iter(leaves))):
            full[n] = a
        return func(*full)
    return flat, tuple(_leaves(chosen)), chosen


def jacrev(func, argnums=0, *, has_aux=False):
    def call(*args):
        nested = _tracked(_leaves(list(args)))     # inside another transform (hessian = jacobian of jacobian)
        nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        if any(type(args[n]) is not Tensor for n in nums):
            flat, leaves, chosen = _on_leaves(func, args, nums)
            jac = jacobian(flat, leaves, create_graph=nested)
            pick = (lambda shaped: shaped[0]) if isinstance(argnums, int) else tuple
            if jac and type(jac[0]) is tuple:     # one Jacobian per output
                return tuple(pick(_rebuild(chosen, iter(j))) for j in jac)
            return pick(_rebuild(chosen, iter(jac)))
        if isinstance(argnums, int):
            return jacobian(lambda x: func(*args[:argnums], x, *args[argnums + 1:]), args[argnums],
                            create_graph=nested)
        return jacobian(_only(func, args, tuple(argnums)), tuple(args[n] for n in argnums), create_graph=nested)
    return FuncTransform(call, "jacrev.<locals>.wrapper_fn")


def _func_inputs(primals):
    """torch.func's inputs: graphs stay differentiable when the caller's tensors are tracked
    (vjp(grad(f), x) inside another transform)."""
    outer = _tracked(primals)
    xs = tuple(p.view_as(p) if p.requires_grad else p.detach().requires_grad_(True) for p in primals)
    return outer, xs


def _call_with_aux(func, xs, has_aux):
    """func(*xs) with grad mode on: (output, aux or None, the outputs as a tuple)."""
    with enable_grad():
        out = func(*xs)
    aux = None
    if has_aux:
        out, aux = out
    return out, aux, _as_tuple(out)


def func_vjp(func, *primals, has_aux=False):
    """torch.func.vjp: (func(*primals), vjp_fn); vjp_fn(cotangents) gives one gradient per primal
    (a pytree primal, such as a dict of parameters, gets gradients of its structure)."""
    if any(type(p) is not Tensor for p in primals):
        flat, leaves, chosen = _on_leaves(func, primals, range(len(primals)))
        res = func_vjp(flat, *leaves, has_aux=has_aux)
        inner = res[1]
        fn = FuncTransform(lambda *cts: tuple(_rebuild(chosen, iter(inner(*cts)))), "vjp.<locals>.wrapper")
        return (res[0], fn, *res[2:])
    outer, xs = _func_inputs(primals)
    out, aux, outs = _call_with_aux(func, xs, has_aux)

    def vjp_fn(*cotangents):
        cts = _as_tuple(cotangents[0]) if type(out) is Tensor or len(cotangents) == 1 else cotangents
        live = [(o, c) for o, c in zip(outs, cts) if o.requires_grad]
        gs = autograd_grad([o for o, _ in live], xs, [c for _, c in live], retain_graph=True,
                           create_graph=outer, allow_unused=True) if live else (None,) * len(xs)
        gs = _zeros_for(gs, xs)
        return gs if outer else tuple(g.detach() for g in gs)
    shown = out if outer else (out.detach() if type(out) is Tensor else tuple(o.detach() for o in outs))
    fn = FuncTransform(vjp_fn, "vjp.<locals>.wrapper")
    return (shown, fn, aux) if has_aux else (shown, fn)


def func_jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """torch.func.jvp: (func(*primals), J @ tangents), here by differentiating a vjp with
    respect to its cotangent (reverse mode twice) instead of PyTorch's forward mode."""
    if type(primals) not in (tuple, list) or type(tangents) not in (tuple, list):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid "
                           "to call f(*primals).")
    if len(primals) != len(tangents):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           f"structure. For example, if primals is a tuple of 3 tensors, tangents also must be. "
                           f"Got primals with structure {len(primals)} and tangents with structure {len(tangents)}")
    if any(type(p) is not Tensor for p in primals):      # pytrees: the tangents have the primals' structure
        flat, leaves, _ = _on_leaves(func, tuple(primals), range(len(primals)))
        return func_jvp(flat, leaves, tuple(_leaves(list(tangents))), strict=strict, has_aux=has_aux)
    outer, xs = _func_inputs(tuple(primals))
    if outer:
        res = _jvp_by_duals(func, xs, tangents, has_aux)
        if res is not None:
            return res
    out, aux, outs = _call_with_aux(func, xs, has_aux)
    with enable_grad():
        us = [_new(np.zeros_like(o._a)).requires_grad_(True) for o in outs]
        live = [(o, u) for o, u in zip(outs, us) if o.requires_grad]
        gs = autograd_grad([o for o, _ in live], xs, [u for _, u in live], create_graph=True,
                           allow_unused=True) if live else (None,) * len(xs)
        total = None
        for g, t in zip(gs, tangents):
            if g is not None:
                term = (g * t).sum()
                total = term if total is None else total + term
        if total is not None and total.requires_grad:
            js = autograd_grad(total, us, create_graph=outer, allow_unused=True)
        else:
            js = (None,) * len(us)
    js = _zeros_for(js, outs)
    if not outer:
        js = tuple(j.detach() for j in js)
        outs = tuple(o.detach() for o in outs)
    else:       # the primal output comes out of PyTorch's dual tensor as an alias
        outs = tuple(o[...] if o.requires_grad else o for o in outs)
    single = type(out) is Tensor
    res = (outs[0] if single else outs, js[0] if single else js)
    return (*res, aux) if has_aux else res


def _jvp_by_duals(func, xs, tangents, has_aux):
    """torch.func.jvp where a primal requires grad: through forward AD's dual tensors, op by op
    as PyTorch's, so that each tangent has the graph PyTorch's forward formulas give it
    (None inside an outer dual level)."""
    if FAD.LEVEL[0] is not None or any(type(t) is not Tensor for t in tangents):
        return None
    with FAD.dual_level():
        duals = [FAD.make_dual(x, t) for x, t in zip(xs, tangents)]
        out, aux, outs = _call_with_aux(func, duals, has_aux)
        pairs = [FAD.unpack_dual(o) for o in outs]
    prims = tuple(o[...] if o.requires_grad else o for o in outs)     # PyTorch's alias of the primal
    js = _zeros_for(tuple(p[1] for p in pairs), outs)
    single = type(out) is Tensor
    res = (prims[0] if single else prims, js[0] if single else js)
    return (*res, aux) if has_aux else res


def func_hessian(func, argnums=0):
    """torch.func.hessian: the jacobian of the jacobian, for any output shape."""
    inner = jacrev(func, argnums)
    return FuncTransform(jacrev(inner, argnums).call, "hessian.<locals>.wrapper_fn")


# ================================================================ anomaly detection
class detect_anomaly:
    """with torch.autograd.detect_anomaly(): backward checks every node's gradients for NaN."""

    __slots__ = ("prev", "check_nan")

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        self.prev = False
        warn("UserWarning", "Anomaly Detection has been enabled. This mode will increase the runtime and should only "
             "be enabled for debugging.")

    def __enter__(self):
        self.prev = A.ANOMALY[0]
        A.ANOMALY[0] = bool(self.check_nan)
        return None

    def __exit__(self, *exc):
        A.ANOMALY[0] = self.prev
        return False

    def __call__(self, fn):
        def wrapped(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)
        return wrapped

    def __repr__(self):
        return f"<torch.autograd.anomaly_mode.detect_anomaly object at {id(self):#x}>"


class set_detect_anomaly:
    """torch.autograd.set_detect_anomaly(mode): sets the mode at once (and works as a context)."""

    __slots__ = ("prev",)

    def __init__(self, mode, check_nan=True):
        self.prev = A.ANOMALY[0]
        A.ANOMALY[0] = bool(mode) and bool(check_nan)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        A.ANOMALY[0] = self.prev
        return False

    def __repr__(self):
        return f"<torch.autograd.anomaly_mode.set_detect_anomaly object at {id(self):#x}>"


def is_anomaly_enabled():
    return A.ANOMALY[0]


_CHECK_NAN = [True]     # torch.set_anomaly_enabled's check_nan


def set_anomaly_enabled(enabled, check_nan=True):
    """torch.set_anomaly_enabled: anomaly detection on or off at once (no warning)."""
    A.ANOMALY[0] = bool(enabled) and bool(check_nan)
    _CHECK_NAN[0] = bool(check_nan)


def is_anomaly_check_nan_enabled():
    return _CHECK_NAN[0]


def is_tensor_like(inp):
    """torch.autograd.is_tensor_like: a tensor (gradrepl has no __torch_function__ types)."""
    return type(inp) is Tensor


AUTOGRAD_FUNCTIONAL = {"vjp": vjp, "jvp": jvp, "hvp": hvp, "vhp": vhp}
# ------------------------------------------------------------------ torch.compile
class _CompiledSpec:
    """The node a compiled module's or function's outputs hang off (CompiledFunctionBackward):
    gradrepl runs the eager code, whose graph lies behind this one node, so the gradients are
    the eager ones."""

    __slots__ = ()
    name = "CompiledFunctionBackward"
    repr_prefix = "torch.autograd.function."
    formulas = ("grad (the compiled graph's backward)",)
    inputs = ("*outputs",)
    saves = False
    multi = True
    builtin = False

    @staticmethod
    def backward(grads, node, xp):
        return tuple(grads)


COMPILED_SPEC = _CompiledSpec()


def compiled_outputs(out):
    """The eager result of a compiled call, its tensors behind one CompiledFunctionBackward node."""
    single = type(out) is Tensor
    if not single and not (type(out) is tuple and out and all(type(o) is Tensor for o in out)):
        return out
    outs = (out,) if single else out
    if not (A.GRAD[0] and any(o.requires_grad for o in outs)):
        return out
    node = A.Node(COMPILED_SPEC, tuple(A.edge_of(o) if o.requires_grad else None for o in outs))
    node.n_out = len(outs)
    fresh = []
    for i, o in enumerate(outs):
        t = _new(o._a)
        if o.requires_grad:
            t._fn, t._onr = node, i
        fresh.append(t)
    return fresh[0] if single else tuple(fresh)


class TorchCompile:
    """torch.compile: a module comes back as an OptimizedModule (made by `module_hook`, which
    the language sets: the engine knows no torch.nn), a function as a function of the same
    name; both run the eager code. `torch.compile(mode=...)` without a model is a decorator."""

    __slots__ = ("module_hook",)

    def __init__(self):
        self.module_hook = None

    def __call__(self, model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
                 disable=False):
        if mode is not None and options is not None:
            raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same "
                               "time.")
        if model is None:
            return FuncTransform(self, "compile.<locals>.fn")
        if not callable(model):
            raise RuntimeError("compile() expected a callable or an nn.Module, got "
                               f"{pytype(model)}")   # (PyTorch: AssertionError inside dynamo)
        wrapped = self.module_hook(model) if self.module_hook is not None else None
        if wrapped is not None:
            return wrapped
        if disable:
            return model

        def call(*args, **kwargs):
            return compiled_outputs(model(*args, **kwargs))
        return FuncTransform(call, getattr(model, "__name__", "fn"))

    def __repr__(self):
        return f"<function compile at {id(self):#x}>"


TORCH_COMPILE = TorchCompile()


FUNC = {"grad": func_grad, "grad_and_value": grad_and_value, "vmap": vmap, "jacrev": jacrev,
        "jacfwd": jacrev, "hessian": func_hessian, "vjp": func_vjp, "jvp": func_jvp}
