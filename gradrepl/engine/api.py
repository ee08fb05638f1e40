"""What the language may show user code: the `torch` namespace and the attribute allow-lists.

Everything here is data: the language wraps TORCH's dicts into read-only module facades,
reads attributes of engine objects only through `public_attrs`, and assigns only through
`settable_attrs`. A name absent from these tables does not exist for user code.
"""
import types

import numpy as np

from gradrepl.engine import amp as AMP
from gradrepl.engine import autograd as A
from gradrepl.engine import backward as B
from gradrepl.engine import dtypes as D
from gradrepl.engine import functional as FN
from gradrepl.engine import functions as F
from gradrepl.engine import forward_ad as FAD
from gradrepl.engine import graph as G
from gradrepl.engine import ops, profiler, rng, signatures
from gradrepl.engine.ops.meta import STORAGE_ATTRS, Layout, MemoryFormat, TypedStorage
from gradrepl.engine.ops.reduce import MaxReturn, MinReturn
from gradrepl.engine.ops.sorting import NamedReturn
from gradrepl.engine.creation import from_numpy
from gradrepl.engine.ndarray import ARRAY_ATTRS, DTYPE_ATTRS as NP_DTYPE_ATTRS, SCALAR_ATTRS as NP_SCALAR_ATTRS, \
    NumpyArray, NumpyBool, NumpyDType, NumpyFloat, NumpyInt, NumpyType
from gradrepl.engine import npfuncs
from gradrepl.engine import spellings as S
from gradrepl.engine import tensor as T
from gradrepl.engine.tensor import PARAMETERS, Device, Size, Tensor, _new, wrap
from gradrepl.engine import util
from gradrepl.engine.util import pytype
from gradrepl.engine.xp import ARRAYS
from gradrepl.messages import msg


class Unavailable:
    """A torch name gradrepl refuses on purpose; reading it raises the error it carries."""

    __slots__ = ("name", "message", "exc")

    def __init__(self, name, message=None, exc=AttributeError):
        self.name = name
        self.message = message or f"{name} is not available in gradrepl"
        self.exc = exc

    def error(self):
        return self.exc(self.message)


class TensorType:
    """`torch.Tensor` as user code sees it: calling it builds a float tensor; isinstance works."""

    __slots__ = ()

    def __call__(self, *args, **kwargs):
        return F.legacy_tensor(*args, **kwargs)

    def __repr__(self):
        return "<class 'torch.Tensor'>"


TENSOR_TYPE = TensorType()


class TypeStandIn:
    """What `type(x)` returns for engine objects: prints as PyTorch's class, compares by identity."""

    __slots__ = ("path",)

    def __init__(self, path):
        self.path = path

    def __repr__(self):
        return f"<class '{self.path}'>"

    @property
    def __name__(self):  # noqa: D401 (for the language's own messages)
        return self.path.rsplit(".", 1)[-1]


# ------------------------------------------------------------------ custom autograd.Function
class FunctionCtx:
    """The `ctx` of a custom Function: save_for_backward, saved_tensors, free attributes."""

    def __init__(self, name="Function"):
        self._name = name         # PyTorch's ctx is the backward node: <...DoubleBackward object>
        self._saved = ()
        self._needs = ()
        self._dirty = ()
        self._non_diff = ()
        self._materialize = True
        self._saved_fwd = None   # save_for_forward's tensors (read as saved_tensors inside jvp)
        self._packed = False     # _saved went through a saved_tensors_hooks pack hook
        self._in_jvp = False

    def __repr__(self):
        return f"<torch.autograd.function.{self._name}Backward object at {id(self):#x}>"

    def save_for_forward(self, *tensors):
        for t in tensors:
            if t is not None and type(t) is not Tensor:
                raise AssertionError("save_for_forward expects all arguments to be tensors; you should save "
                                     "non-tensors as attributes on ctx.")
        self._saved_fwd = tuple(tensors)

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and type(t) is not Tensor:
                raise TypeError("save_for_backward can only save variables, but argument 0 is of type "
                                f"{pytype(t)}")
        self._saved = tuple(tensors)

    @property
    def saved_tensors(self):
        if self._in_jvp and self._saved_fwd is not None:
            return self._saved_fwd
        if self._saved is None:
            raise RuntimeError(A.RETAIN_MSG)
        if self._packed:
            return tuple([s.tensor() if type(s) is A.Packed else s for s in self._saved])
        return self._saved

    @property
    def needs_input_grad(self):
        return self._needs

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_diff = tensors

    def set_materialize_grads(self, value):
        self._materialize = bool(value)


class _CustomSpec:
    __slots__ = ("name", "formulas", "backward", "saves", "multi", "inputs", "user_backward")
    repr_prefix = "torch.autograd.function."
    builtin = False

    def __init__(self, name, user_backward):
        self.name = name
        self.formulas = (f"{name[:-len('Backward')]}.backward(ctx, grad)",)
        self.inputs = ("*args",)
        self.saves = False
        self.multi = True
        self.user_backward = user_backward
        self.backward = self._run

    def _run(self, grads, node, xp):
        ctx, n_inputs, positions, metas = node.ctx
        wrapped = [None if g is None else (g if xp is not ARRAYS else wrap(g)) for g in grads]
        if ctx._materialize:
            wrapped = [wrap(np.zeros(())) if g is None else g for g in wrapped]
        res = self.user_backward(ctx, *wrapped)
        if type(res) is not tuple:
            res = (res,)
        if len(res) != n_inputs:
            if len(res) > n_inputs and all(r is None for r in res[n_inputs:]):
                res = res[:n_inputs]
            else:
                raise RuntimeError(f"function {self.name} returned an incorrect number of gradients "
                                   f"(expected {n_inputs}, got {len(res)})")
        for i, r in enumerate(res):
            if r is not None and i not in positions:
                raise RuntimeError(f"function {self.name} returned a gradient different than None at position "
                                   f"{i + 1}, but the corresponding forward input was not a Variable")
        out = []
        for i, e, (shape, dtype) in zip(positions, node.edges, metas):   # one edge per tensor argument
            r = res[i]
            if r is not None and type(r) is not Tensor:
                raise RuntimeError(f"expected Variable or None (got {pytype(r)})")
            if r is None or e is None:
                out.append(None)
                continue
            g = r._a if xp is ARRAYS else r
            out.append(_validate_grad(self.name, i, g, shape, dtype, xp))
        return tuple(out)


def _validate_grad(name, i, g, shape, dtype, xp):
    """PyTorch's validate_outputs for a custom Function's gradient: summed down to the input's
    shape when that shape expands to it, cast to the input's dtype; any other shape is refused."""
    if tuple(g.shape) != shape:
        lead = len(g.shape) - len(shape)
        if lead < 0 or any(s != 1 and s != d for s, d in zip(shape, tuple(g.shape)[lead:])):
            raise RuntimeError(f"Function {name} returned an invalid gradient at index {i} - got "
                               f"{util.shape_list(g.shape)} but expected shape compatible with {util.shape_list(shape)}")
        g = xp.sum_to(g, shape)
    if xp is ARRAYS:
        return g if g.dtype == dtype else g.astype(dtype)
    return g if g._a.dtype == dtype else g.to(D.from_np(dtype))


class CustomFunction:
    """A user's `class Name(torch.autograd.Function)`: `Name.apply(*args)` runs it."""

    __slots__ = ("name", "forward", "backward", "_spec", "methods")

    def __init__(self, name, forward, backward, methods=None):
        self.name = name
        self.forward = forward
        self.backward = backward
        self.methods = methods or {}
        self._spec = _CustomSpec(name + "Backward", backward)

    def apply(self, *args):
        ctx = FunctionCtx(self.name)
        ctx._needs = tuple(type(a) is Tensor and a.requires_grad for a in args)
        prev = A.GRAD[0]
        dual = bool(T.TANGENTS) and any(type(a) is Tensor and T.tangent_of(a) is not None for a in args)
        A.GRAD[0] = False
        busy = FAD.BUSY[0]
        FAD.BUSY[0] = True if dual else busy     # the forward's own ops carry no tangents
        try:
            out = self.forward(ctx, *args)
        finally:
            A.GRAD[0] = prev
            FAD.BUSY[0] = busy
        outs = self._record(ctx, args, out, prev)
        if dual:
            self._jvp(ctx, args, outs)
        return outs if type(out) is tuple else outs[0]

    def _jvp(self, ctx, args, outs):
        """Forward AD through the user's jvp(ctx, *tangents): the outputs' tangents."""
        jvp = self.methods.get("jvp")
        if jvp is None:
            raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use "
                                      "it with forward mode AD.")
        tangents = []
        for a in args:
            if type(a) is not Tensor:
                tangents.append(None)
                continue
            t = T.tangent_of(a)
            tangents.append(_new(np.zeros_like(a._a)) if t is None else t)
        ctx._in_jvp = True
        busy = FAD.BUSY[0]
        FAD.BUSY[0] = True
        try:
            res = jvp(ctx, *tangents)
        finally:
            ctx._in_jvp = False
            FAD.BUSY[0] = busy
        res = res if type(res) is tuple else (res,)
        for o, t in zip(outs, res):
            if type(o) is Tensor and type(t) is Tensor:
                FAD.set_tangent(o, t)

    def _record(self, ctx, args, out, prev):
        outs = out if type(out) is tuple else (out,)
        tensor_inputs = [a if type(a) is Tensor else None for a in args]
        if prev and any(ctx._needs):
            # edges for the tensor arguments only, as PyTorch's next_functions
            positions = tuple(i for i, a in enumerate(tensor_inputs) if a is not None)
            node = A.Node(self._spec, tuple(A.edge_of(tensor_inputs[i]) for i in positions), (),
                          (ctx, len(args), positions, tuple((args[i]._a.shape, args[i]._a.dtype) for i in positions)))
            node.n_out = len(outs)
            if A.SAVED_HOOKS and ctx._saved:
                ctx._saved = A.pack_values(ctx._saved)
                ctx._packed = True
            fresh = []
            for i, o in enumerate(outs):
                if type(o) is Tensor:
                    non_diff = any(o is nd for nd in ctx._non_diff)
                    if any(o is a for a in tensor_inputs):
                        o = _new(o._a)    # an input returned as is: a new tensor on the same data
                    if non_diff:
                        fresh.append(o)
                        continue
                    if o._fn is not None or o._rg:
                        o = _new(o._a)
                    o._fn, o._onr = node, i
                fresh.append(o)
            outs = tuple(fresh)
        return outs

    def __repr__(self):
        return f"<class '__main__.{self.name}'>"


def custom_function(name, forward, backward, methods=None):
    return CustomFunction(name, forward, backward, methods)


def missing_backward(ctx, *grads):
    """The backward of a custom Function that defines only forward and jvp."""
    raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                              "autograd.Function to use it with backward mode AD.")


class FunctionBase:
    """torch.autograd.Function as a base-class marker for the language's `class` statement."""

    __slots__ = ()

    def __repr__(self):
        return "<class 'torch.autograd.function.Function'>"


FUNCTION_BASE = FunctionBase()


# ------------------------------------------------------------------ the torch namespace
def _unavailable(names, what):
    return {n: Unavailable(f"torch.{n}" if "." not in n else n, f"torch.{n} {what}") for n in names}


def _build_torch():
    ns = {}
    for name, dt in D.TORCH_NAMES.items():
        ns[name] = dt
    ns["dtype"] = TypeStandIn("torch.dtype")
    ns["layout"] = TypeStandIn("torch.layout")
    ns["memory_format"] = TypeStandIn("torch.memory_format")
    creation = ("tensor as_tensor asarray ones zeros empty full ones_like zeros_like empty_like full_like arange linspace eye "
                "rand randn randint randperm rand_like randn_like randint_like normal bernoulli multinomial manual_seed "
                "seed initial_seed get_rng_state set_rng_state Generator is_tensor is_floating_point broadcast_shapes "
                "set_printoptions no_grad enable_grad set_grad_enabled inference_mode is_grad_enabled").split()
    for name in creation:
        ns[name] = getattr(F, name)
    for name in FACTORIES:
        ns[name] = S.factory(ns[name], name)
    for name, fn in ops.TORCH_FUNCTIONS.items():   # every declared op with a torch.* variant
        ns[name] = S._torch_spellings(fn, name)
    ns["numel"] = F.numel
    ns["Generator"] = rng.Generator        # a class for isinstance; the facade builds one through F.Generator
    ns["default_generator"] = rng.default_generator
    ns["Tensor"] = TENSOR_TYPE
    ns["Size"] = Size
    ns["float"] = D.float32
    ns["pi"] = float(np.pi)
    ns["e"] = float(np.e)
    ns["inf"] = float("inf")
    ns["nan"] = float("nan")
    ns["__version__"] = "2.13.0+cpu"  # what the PyTorch these outputs are checked against reports
    ns["autograd"] = {
        "Variable": F.Variable,
        "grad": B.grad,
        "backward": B.backward,
        "Function": FUNCTION_BASE,
        "gradcheck": F.gradcheck,
        "gradgradcheck": F.gradgradcheck,
        "is_tensor_like": FN.is_tensor_like,
        "functional": {"jacobian": F.jacobian, "hessian": F.hessian},
        "function": {"Function": FUNCTION_BASE, "once_differentiable": F.once_differentiable},
        "no_grad": F.no_grad,
        "enable_grad": F.enable_grad,
        "set_grad_enabled": F.set_grad_enabled,
        "set_detect_anomaly": lambda mode, check_nan=True: None,
        "inference_mode": F.inference_mode,
        "variable": F.variable,
        "set_multithreading_enabled": F.set_multithreading_enabled,
        "is_multithreading_enabled": F.is_multithreading_enabled,
        "is_view_replay_enabled": F.is_view_replay_enabled,
        "forward_ad": dict(FAD.FORWARD_AD_NS),
        "graph": dict(G.GRAPH_NS),
    }
    ns["nn"] = {"functional": dict(ops.FUNCTIONAL)}
    for sub in ("Module", "Linear", "Parameter", "Sequential", "MSELoss", "CrossEntropyLoss", "ReLU", "Conv2d"):
        ns["nn"][sub] = Unavailable(f"torch.nn.{sub}", f"torch.nn.{sub} is not available in gradrepl yet: "
                                    "torch.nn modules come later; use tensors and torch.nn.functional")
    ns["optim"] = Unavailable("torch.optim", "torch.optim is not available in gradrepl yet: update parameters by "
                              "hand inside `with torch.no_grad():`")
    refused = ("save load from_file jit utils ops classes fx multiprocessing cuda backends "
               "hub onnx distributed library export package testing serialization storage UntypedStorage"
               ).split()
    for name in refused:
        ns[name] = Unavailable(f"torch.{name}")
    for name in ("complex32", "chalf"):
        ns[name] = Unavailable(f"torch.{name}", msg("complex.chalf", "en", name=f"torch.{name}"))
    for name in ("uint16", "uint32", "uint64"):
        ns[name] = Unavailable(f"torch.{name}", msg("dtype.unsigned_wide", "en", name=name))
    ns["from_numpy"] = from_numpy
    ns["compile"] = FN.TORCH_COMPILE
    ns.update(S.namespace())
    ns["fft"] = dict(ops.fft.FFT)
    S.extend_autograd(ns["autograd"])
    ns["profiler"], ns["autograd"]["profiler"] = profiler.namespaces()
    # torch.functional: the module PyTorch defines these torch.* functions in
    # (`import torch.functional as F` in the introyt tutorial)
    ns["functional"] = {n: ns[n] for n in TORCH_FUNCTIONAL if n in ns}
    top, ns["amp"], cpu_amp, cuda_amp = AMP.namespaces()
    ns.update(top)
    ns["cuda"] = {**ns["cuda"], "amp": cuda_amp}
    ns["cpu"] = {"amp": cpu_amp, "is_available": lambda: True, "device_count": lambda: 1,
                 "current_device": lambda: "cpu", "synchronize": lambda device=None: None}
    # CPU autocast: the ops of PyTorch's lists cast their arguments first (engine/amp.py)
    AMP.install(ns, AMP.POLICIES)
    AMP.install(ns["nn"]["functional"], AMP.POLICIES)
    AMP.install(ns["linalg"], AMP.LINALG_POLICIES)
    if isinstance(ns.get("fft"), dict):
        AMP.install(ns["fft"], AMP.FFT_POLICIES)
    AMP.install_methods()
    return ns


TORCH_FUNCTIONAL = ("atleast_1d atleast_2d atleast_3d broadcast_shapes broadcast_tensors cartesian_prod "
                    "block_diag cdist chain_matmul einsum istft lu norm meshgrid pca_lowrank split stft "
                    "svd_lowrank tensordot unique unique_consecutive unravel_index").split()


FACTORIES = ("tensor as_tensor asarray ones zeros empty full ones_like zeros_like empty_like full_like arange linspace eye "
             "rand randn randint randperm rand_like randn_like randint_like normal").split()
S.install_method_aliases()


TORCH = _build_torch()


def numpy_namespace():
    """`import numpy`'s entries (one random state each call); the refused names carry their error."""
    entries = npfuncs.namespace()
    for name in npfuncs.REFUSED:
        entries[name] = Unavailable(f"numpy.{name}", msg("numpy.refused", "en", name=name))
    return entries
signatures.register_functions(TORCH)
signatures.register_functions(TORCH["nn"]["functional"], "functional")
for _sub in ("linalg", "special"):     # PyTorch's parser names them linalg_NAME / special_NAME
    signatures.register_functions({f"{_sub}_{k}": v for k, v in TORCH[_sub].items()})
# forward AD: the ops user code calls carry tangents inside a dual level
FAD.register_namespace(TORCH, [n for n in ops.TORCH_FUNCTIONS if n in TORCH])
for _ns in (TORCH["nn"]["functional"], TORCH["special"], TORCH["linalg"]):
    FAD.register_namespace(_ns)
TORCH_UTILS = {"swap_tensors": F.swap_tensors}   # torch.utils besides torch.utils.data (lang's facade)


# ------------------------------------------------------------------ attribute allow-lists
# Every public attribute of Tensor: its state (tensor.py), the installed ops (ops/), backward.
TENSOR_ATTRS = frozenset(n for n in dir(Tensor) if not n.startswith("_"))
# Ops expression files may call without `torch.` (gradrepl.lang adds creation and grad mode).
BARE_OPS = ops.BARE
# Calls whose result is not a tensor (completion: what `x.item().` completes to).
NOT_TENSOR_RESULTS = ops.NOT_TENSOR_RESULTS

NODE_ATTRS = frozenset(("name", "next_functions", "metadata", "register_hook", "register_prehook"))
ACC_ATTRS = NODE_ATTRS | {"variable"}
DTYPE_ATTRS = frozenset(("is_floating_point", "is_complex", "is_signed", "itemsize"))
SIZE_ATTRS = frozenset(("numel", "count", "index"))
HANDLE_ATTRS = frozenset(("remove", "id"))
RETURN_ATTRS = frozenset(("values", "indices", "count", "index"))
CTX_ATTRS = frozenset(("save_for_backward", "save_for_forward", "saved_tensors", "needs_input_grad", "mark_dirty",
                       "mark_non_differentiable", "set_materialize_grads"))
GRADMODE_ATTRS = frozenset(("clone",))
DEVICE_ATTRS = frozenset(("type", "index"))
CUSTOM_FN_ATTRS = frozenset(("apply",))
GENERATOR_ATTRS = frozenset(("manual_seed", "seed", "initial_seed", "get_state", "set_state", "device"))
CLASS_MAKERS = {"Generator": F.Generator}   # torch.Generator(device="cpu") builds the engine's class


def _generator_get_state(self):
    """generator.get_state(): the state bytes as a uint8 tensor (torch.get_rng_state's)."""
    return _new(np.asarray(self.get_state(), np.uint8))


def _generator_set_state(self, new_state):
    if type(new_state) is not Tensor:
        raise TypeError(f"expected a torch.ByteTensor, but got {pytype(new_state)}")
    if new_state.dtype is not D.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    self.set_state(new_state._a)
    return self


# engine methods user code sees in tensor terms: {type: {name: function(self, ...)}}
ADAPTED_METHODS = {rng.Generator: {"get_state": _generator_get_state, "set_state": _generator_set_state}}


def read_attr(obj, name):
    """getattr(obj, name) for a public attribute, through ADAPTED_METHODS."""
    table = ADAPTED_METHODS.get(type(obj))
    if table is not None and name in table:
        return types.MethodType(table[name], obj)
    if type(obj) is rng.Generator and name == "device":
        return Device("cpu")
    return getattr(obj, name)


def public_attrs(obj):
    """Attribute names user code may read on an engine object; None if `obj` is not one."""
    t = type(obj)
    if t is Tensor:
        return TENSOR_ATTRS
    if t is A.AccumulateGrad:
        return ACC_ATTRS
    if t is A.Node:
        return NODE_ATTRS
    if t is D.DType:
        return DTYPE_ATTRS
    if t is Size:
        return SIZE_ATTRS
    if t is TypedStorage:
        return STORAGE_ATTRS
    if t is A.RemovableHandle:
        return HANDLE_ATTRS
    if t is MaxReturn or t is MinReturn:
        return RETURN_ATTRS
    if t is FunctionCtx:
        return CTX_ATTRS
    if t in FAD.CONTEXT_TYPES or t in G.CONTEXT_TYPES:
        return frozenset()
    if isinstance(obj, F._GradMode) or t is F.set_multithreading_enabled:
        return GRADMODE_ATTRS
    if t is Device:
        return DEVICE_ATTRS
    if t is CustomFunction:
        return CUSTOM_FN_ATTRS
    if t is rng.Generator:
        return GENERATOR_ATTRS
    if t in AMP.CLASSES:
        return AMP.SCALER_ATTRS if isinstance(obj, AMP.GradScaler) else AMP.AUTOCAST_ATTRS
    if t is AMP.AutocastFunction:
        return frozenset()
    if isinstance(obj, NamedReturn):
        return frozenset(obj._fields) | {"count", "index"}
    if t is NumpyArray:
        return ARRAY_ATTRS
    if t is NumpyDType:
        return NP_DTYPE_ATTRS
    if t is NumpyFloat or t is NumpyInt or t is NumpyBool:
        return NP_SCALAR_ATTRS
    if t is NumpyType:
        return frozenset()
    if t is S.finfo:
        return S.FINFO_ATTRS
    if t is S.iinfo:
        return S.IINFO_ATTRS
    if t in profiler.ATTRS:
        return profiler.ATTRS[t]
    if t is S.LegacyTensorType:
        return LEGACY_TYPE_ATTRS
    if t in (F.GradModeFunction, TensorType, TypeStandIn, Unavailable, FunctionBase,
             FN.detect_anomaly, FN.set_detect_anomaly, FN.FuncTransform, FN.TorchCompile, F.OnceDifferentiable):
        return frozenset()
    return None


TENSOR_SETTABLE = frozenset(("grad", "requires_grad", "data"))
LEGACY_TYPE_ATTRS = frozenset(("dtype",))      # torch.FloatTensor.dtype


def settable_attrs(obj):
    """Attributes user code may assign: a frozenset, or None meaning any non-underscore name."""
    t = type(obj)
    if t is Tensor:
        return TENSOR_SETTABLE
    if t is FunctionCtx:
        return None
    return frozenset()


_TYPE_NAMES = {Tensor: "torch.Tensor", Size: "torch.Size", D.DType: "torch.dtype",
               A.RemovableHandle: "torch.utils.hooks.RemovableHandle", MaxReturn: "torch.return_types.max",
               MinReturn: "torch.return_types.min", FunctionCtx: "torch.autograd.function.FunctionCtx",
               Device: "torch.device", A.AccumulateGrad: "AccumulateGrad", S.finfo: "torch.finfo",
               S.iinfo: "torch.iinfo", F.set_multithreading_enabled: "torch.autograd.grad_mode.set_multithreading_enabled",
               Layout: "torch.layout", MemoryFormat: "torch.memory_format", TypedStorage: "torch.storage.TypedStorage",
               # a stand-in, and says so: no NumPy class is ever named to user code (the sandbox
               # checks treat "numpy.ndarray" in the output as a leak)
               NumpyArray: "gradrepl.ndarray", NumpyType: "type"}


def type_name(obj):
    """PyTorch's class path for `type(obj)`, or None for non-engine objects."""
    t = type(obj)
    name = _TYPE_NAMES.get(t)
    if name is not None:
        return name
    if t is NumpyFloat or t is NumpyInt or t is NumpyBool:
        return "gradrepl." + type(obj._np).__name__
    if t is NumpyDType:
        return f"gradrepl.dtypes.{np.dtype(obj.name).__class__.__name__}"
    if t is A.Node:
        return getattr(obj.spec, "repr_prefix", "") + obj.spec.name
    if isinstance(obj, F._GradMode):
        return f"torch.autograd.grad_mode.{obj._kind}"
    if t is rng.Generator:
        return "torch._C.Generator"
    if t in AMP.CLASSES:
        return t._path
    if t is AMP.AutocastFunction:
        return "function"
    if t in FAD.CONTEXT_TYPES:
        return FAD.CONTEXT_TYPES[t]
    if t in G.CONTEXT_TYPES:
        return G.CONTEXT_TYPES[t]
    if t is FAD.UnpackedDualTensor:
        return "torch.autograd.forward_ad.UnpackedDualTensor"
    if isinstance(obj, NamedReturn):
        return "torch.return_types." + obj._name
    if t is FN.detect_anomaly or t is FN.set_detect_anomaly:
        return "torch.autograd.anomaly_mode." + t.__name__
    if t is FN.FuncTransform or t is FN.TorchCompile:
        return "function"
    return None


def is_tensor(obj):
    return type(obj) is Tensor


def is_parameter(obj):
    return type(obj) is Tensor and PARAMETERS.get(id(obj)) is obj


def is_legacy_tensor_type(obj):
    return type(obj) is S.LegacyTensorType


def is_tensor_type(obj):
    return obj is TENSOR_TYPE


def grad_enabled():
    return A.GRAD[0]


def set_warning_sink(sink):
    util._WARN[0] = sink


def peek_grad(t):
    """t.grad without PyTorch's non-leaf warning: for gradrepl's own displays and checks,
    which look at every tensor (the warning is for the learner's own reads)."""
    return t._grad


def keep_saved_for_explain(keep=True):
    """The REPL's tutor: keep saved values after backward so :explain can replay the graph."""
    A.KEEP_SAVED[0] = bool(keep)


def reset_state():
    """Grad mode back to enabled, autocast off (after an interrupted statement left them)."""
    A.GRAD[0] = True
    AMP.reset()
