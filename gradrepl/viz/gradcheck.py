"""Autograd against finite differences, and the Jacobian built row by row.

`gradcheck_source` reruns the statements that produced NAME with every named leaf of
NAME's graph replaced (right after the statement that creates it) by a float64 copy,
then compares the engine's gradients of sum(v * NAME) with central finite differences
(each element moved by +-eps, the statements rerun), in float64, as
torch.autograd.gradcheck does with its defaults (eps 1e-6, atol 1e-5, rtol 1e-3).
Reruns happen in fresh sessions with output discarded; the random generator is reset to
the state the statements started from (when known) before each rerun and restored to the
learner's state afterwards.

`jacobian_rows` builds d y / d x the way 001 does by hand: one backward per element of y
with retain_graph=True, each with a one-hot gradient.
"""
import contextlib
import time
from dataclasses import dataclass, field

import numpy as np

from gradrepl.viz.explain import check_replayable
from gradrepl.viz.graph import Names, VizError, is_accumulate, shape_text, tensor_array, values_text

EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3
MAX_EVALUATIONS = 400      # reruns of the statements for the finite differences
MAX_JACOBIAN_ROWS = 400    # backward passes for :jacobian
MAX_SECONDS = 60           # refuse a check whose reruns would take longer than this


@dataclass
class LeafCheck:
    name: str
    shape: str
    analytic: np.ndarray
    numeric: np.ndarray
    max_abs: float
    max_rel: float
    ok: bool


@dataclass
class GradcheckResult:
    root: str
    leaves: list
    vector_note: str = ""                   # how the output was reduced to a scalar
    notes: list = field(default_factory=list)
    eps: float = EPS
    atol: float = ATOL
    rtol: float = RTOL

    @property
    def ok(self):
        return all(leaf.ok for leaf in self.leaves)


@contextlib.contextmanager
def keeping_saved():
    """While code runs: backward keeps the values it saved, so that these tools can replay a
    graph the code already ran backward() through (the graph still counts as freed for the
    code itself, as in PyTorch)."""
    from gradrepl.engine import api
    from gradrepl.engine.autograd import KEEP_SAVED

    before = KEEP_SAVED[0]
    api.keep_saved_for_explain(True)
    try:
        yield
    finally:
        api.keep_saved_for_explain(before)


def _backward(root, seed, inputs, what, retain_graph=True, names=None):
    """Gradients of root w.r.t. inputs (None where unused), replaying a freed graph whose values
    were kept; the learner's .grad values (retain_grad() ones included) are left as they were."""
    from gradrepl.engine.autograd import RETAIN_MSG, run_backward
    from gradrepl.viz.explain import _reachable, _restore_retained, _save_retained

    if root.grad_fn is None:
        return [None] * len(inputs)
    check_replayable(root.grad_fn, what, names or Names())
    saved = _save_retained(_reachable(root.grad_fn))
    try:
        with np.errstate(all="ignore"):
            return run_backward([root], [seed], retain_graph=retain_graph, create_graph=False,
                                inputs=inputs, accumulate=False, allow_unused=True, replay=True)
    except RuntimeError as e:
        if str(e) == RETAIN_MSG:
            raise VizError(f"the graph of {what} was freed by a backward() that ran before gradrepl "
                           "could keep its values: compute it again, then ask again") from None
        raise VizError(f"backward from {what} failed: RuntimeError: {e}") from None
    except Exception as e:  # noqa: BLE001 - a hook or a custom Function's backward raised
        raise VizError(f"backward from {what} failed: {type(e).__name__}: {e}") from None
    finally:
        _restore_retained(saved)


def _leaves_of(tensor):
    """Leaf tensors of tensor's graph, depth first in input order."""
    if tensor.grad_fn is None:
        return [tensor] if tensor.requires_grad else []
    seen, stack, out = set(), [tensor.grad_fn], []
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if is_accumulate(node):
            out.append(node.variable)
        stack.extend(child for child, _ in reversed(node.next_functions) if child is not None)
    return out


def _leaf(arr, dtype=None):
    """A fresh leaf that requires grad: float64, or `dtype` when given."""
    from gradrepl.engine.tensor import wrap
    return wrap(np.array(arr, dtype=dtype or np.float64)).requires_grad_(True)


class Replay:
    """Reruns `source` with chosen leaves replaced by float64 copies (perturbed or not)."""

    def __init__(self, source, leaf_names, limits=None, rng_state=None, filename="<gradcheck>"):
        self.source, self.leaf_names = source, list(leaf_names)
        self.limits, self.rng_state, self.filename = limits, rng_state, filename
        self.float64 = True     # False: leaves keep their dtype (code that needs equal dtypes)
        self.bare_names = None  # True: the statements came from the prompt, shorthand and all

    def run(self, perturb=None):
        """The rerun's namespace and the injected leaves; perturb(name, array) edits values."""
        from gradrepl.engine import functions as F
        from gradrepl.engine.tensor import Tensor
        from gradrepl.lang import Session, run_source

        session = Session(limits=self.limits, write=lambda text: None)
        injected = {}

        def inject(_statement):
            ns = session.namespace
            for name in self.leaf_names:
                value = ns.get(name)
                if type(value) is Tensor and value.is_leaf and value.requires_grad and value is not injected.get(name):
                    arr = np.array(tensor_array(value), dtype=np.float64)
                    if perturb is not None:
                        perturb(name, arr)
                    ns[name] = injected[name] = _leaf(arr, None if self.float64 else tensor_array(value).dtype)

        session.after_statement = inject
        if self.rng_state is not None:
            F.set_rng_state(self.rng_state)
        with np.errstate(all="ignore"), keeping_saved():
            result = run_source(self.source, session, filename=self.filename, trusted=False, echo="none",
                                bare_names=self.bare_names)
        if result.interrupted:
            raise VizError("gradcheck interrupted (Ctrl-C)")
        if not result.ok:
            err = result.errors[0]
            raise VizError(f"rerunning the statements failed ({err.headline}"
                           + (f", line {err.line}" if err.line else "") + ")")
        return session.namespace, injected


def gradcheck_source(source, namespace, root_name, *, vector=None, limits=None, rng_state=None,
                     filename="<gradcheck>", bare_names=None):
    """Check every named leaf of namespace[root_name]'s graph; see the module docstring."""
    from gradrepl.engine import functions as F
    from gradrepl.engine.tensor import Tensor, wrap

    target = namespace.get(root_name)
    if type(target) is not Tensor:
        raise VizError(f"{root_name} is not a tensor")
    if target.grad_fn is not None:
        check_replayable(target.grad_fn, root_name, Names(namespace))
    leaves = _leaves_of(target)
    if not leaves:
        raise VizError(f"{root_name} does not depend on any tensor with requires_grad=True: nothing to check")
    by_id = {}
    for name, value in namespace.items():
        if isinstance(name, str) and type(value) is Tensor:
            by_id.setdefault(id(value), name)
    named = [(by_id.get(id(leaf)), leaf) for leaf in leaves]
    notes = [f"a leaf of shape {shape_text(leaf)} held by no variable is not checked" for n, leaf in named if n is None]
    named = [(n, leaf) for n, leaf in named if n is not None]
    if not named:
        raise VizError(f"the leaves of {root_name} are held by no variable: name them to check them")
    evaluations = 1 + 2 * sum(leaf.numel() for _, leaf in named)
    if evaluations > MAX_EVALUATIONS:
        raise VizError(f"checking {root_name} needs {evaluations} reruns of the statements (two per leaf "
                       f"element); the limit is {MAX_EVALUATIONS}: check a smaller example")

    v = None
    vector_note = ""
    if vector is not None:
        v = np.asarray(tensor_array(vector), dtype=np.float64)
        if v.shape != tuple(target.shape):
            raise VizError(f"the vector must have {root_name}'s shape {shape_text(target)}, got {list(v.shape)}")
        vector_note = f"checking sum(v * {root_name}) for the vector given"
    elif target.numel() != 1:
        vector_note = f"{root_name} is not a scalar: checking {root_name}.sum() (v = ones)"

    names = [n for n, _ in named]
    replay = Replay(source, names, limits, rng_state, filename)
    replay.bare_names = bare_names
    saved_rng = F.get_rng_state()
    try:
        started = time.perf_counter()
        try:
            ns, injected = replay.run()
        except VizError as e:   # e.g. matmul of a float64 leaf with a float32 tensor: keep the dtypes
            replay.float64 = False
            ns, injected = replay.run()
            notes.append(f"leaves kept in their own dtype: in float64 the statements fail ({e})")
        seconds = (time.perf_counter() - started) * evaluations
        if seconds > MAX_SECONDS:
            raise VizError(f"checking {root_name} needs {evaluations} reruns of the statements, about "
                           f"{seconds:.0f} s: check a smaller or faster example")
        result = ns.get(root_name)
        if type(result) is not Tensor:
            raise VizError(f"rerunning the statements does not define {root_name}")
        original = np.asarray(tensor_array(target), dtype=np.float64)
        again = np.asarray(tensor_array(result), dtype=np.float64)
        if again.shape != original.shape or not np.allclose(again, original, rtol=1e-3, atol=1e-4, equal_nan=True):
            raise VizError(f"rerunning the statements does not reproduce {root_name} (random draws without "
                           "torch.manual_seed, or values changed by later statements), so finite differences "
                           "would compare different functions")
        missing = [n for n in names if n not in injected or all(injected[n] is not leaf for leaf in _leaves_of(result))]
        if missing:
            raise VizError(f"cannot vary {', '.join(missing)}: gradcheck replaces leaves right after the top-level "
                           "statement that creates them, so create them outside loops and blocks")
        coarse = tensor_array(result).dtype != np.float64
        eps, atol, rtol = (1e-3, 1e-2, 1e-2) if coarse else (EPS, ATOL, RTOL)
        weights = np.ones_like(again) if v is None else v
        seed = wrap(np.asarray(weights, dtype=tensor_array(result).dtype))
        grads = _backward(result, seed, [injected[n] for n in names], root_name, retain_graph=False,
                          names=Names(ns))
        checks = []
        for name, leaf, g in zip(names, [leaf for _, leaf in named], grads):
            analytic = np.zeros(tuple(leaf.shape)) if g is None else np.asarray(tensor_array(g), np.float64)
            numeric = np.zeros_like(analytic)
            for j in range(analytic.size):
                def moved(delta):
                    def perturb(which, arr):
                        if which == name:
                            arr.reshape(-1)[j] += delta
                    out = replay.run(perturb)[0].get(root_name)
                    return float(np.sum(weights * np.asarray(tensor_array(out), np.float64)))
                numeric.reshape(-1)[j] = (moved(eps) - moved(-eps)) / (2 * eps)
            diff = np.abs(analytic - numeric)
            scale = np.abs(numeric)
            rel = np.where(scale > 0, diff / np.where(scale > 0, scale, 1), diff)
            ok = bool(np.all(diff <= atol + rtol * scale))
            checks.append(LeafCheck(name, shape_text(leaf), analytic, numeric, float(diff.max(initial=0.0)),
                                    float(rel.max(initial=0.0)), ok))
    finally:
        F.set_rng_state(saved_rng)
    if coarse:
        notes.append(f"{root_name} is computed in {tensor_array(result).dtype} even with float64 leaves "
                     "(PyTorch's promotion rules): eps 1e-3 and tolerances 1e-2 are used")
    return GradcheckResult(root_name, checks, vector_note, notes, eps, atol, rtol)


def jacobian_rows(y, x, y_name="y", x_name="x", names=None):
    """d y / d x as a (y.numel(), x.numel()) array: one backward per element of y."""
    from gradrepl.engine.tensor import Tensor, wrap

    if type(y) is not Tensor or type(x) is not Tensor:
        raise VizError(f"{y_name if type(y) is not Tensor else x_name} is not a tensor")
    if not x.requires_grad:
        raise VizError(f"{x_name} does not require grad: there is no derivative with respect to it")
    if y.grad_fn is None:
        raise VizError(f"{y_name} has no grad_fn: it was not computed from tensors that require grad")
    if y.numel() > MAX_JACOBIAN_ROWS:
        raise VizError(f"{y_name} has {y.numel()} elements: the Jacobian needs one backward each; "
                       f"the limit is {MAX_JACOBIAN_ROWS}")
    ya = tensor_array(y)
    xa = tensor_array(x)
    rows = np.zeros((ya.size, xa.size), dtype=xa.dtype)
    for i in range(ya.size):
        onehot = np.zeros(ya.size, dtype=ya.dtype)
        onehot[i] = 1
        (g,) = _backward(y, wrap(onehot.reshape(ya.shape)), [x], y_name, names=names)
        if g is not None:
            rows[i] = np.asarray(tensor_array(g)).reshape(-1)
    return rows


# ----------------------------------------------------------------- rendering
def _num(v):
    return f"{v:.2e}"


def gradcheck_renderable(res):
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"gradcheck {res.root}: autograd vs finite differences (eps {res.eps:g})",
                  title_justify="left")
    for col, just in (("leaf", "left"), ("shape", "left"), ("max abs error", "right"),
                      ("max rel error", "right"), ("result", "left")):
        table.add_column(col, justify=just)
    for leaf in res.leaves:
        table.add_row(leaf.name, leaf.shape, _num(leaf.max_abs), _num(leaf.max_rel),
                      Text("pass", style="bold green") if leaf.ok else Text("FAIL", style="bold red"))
    parts = [table]
    for note in ([res.vector_note] if res.vector_note else []) + res.notes:
        parts.append(Text(note, style="dim"))
    for leaf in res.leaves:
        if not leaf.ok:
            parts.append(Text(f"{leaf.name}: autograd {values_text(leaf.analytic)}", style="red"))
            parts.append(Text(f"{' ' * len(leaf.name)}  numeric  {values_text(leaf.numeric)}", style="red"))
    if not res.ok:
        parts.append(Text("autograd differs from how the value really changes: a wrong derivative rule; an "
                          "input sitting on a kink (relu, abs, clamp or max at exactly the corner: the finite "
                          "difference straddles it and averages the two slopes, autograd takes one side); or "
                          "the graph cut on purpose (detach(), no_grad()), as 001's detach_() example does",
                          style="dim"))
    verdict = Text()
    verdict.append("passed" if res.ok else "FAILED", style="bold green" if res.ok else "bold red")
    verdict.append(f": |autograd - numeric| <= {res.atol:g} + {res.rtol:g} * |numeric| "
                   + ("holds for every element" if res.ok else "does not hold everywhere"))
    parts.append(verdict)
    return Group(*parts)


def jacobian_renderable(rows, y_name, x_name):
    from rich.console import Group
    from rich.text import Text

    from gradrepl.engine.printing import tensor_repr

    head = Text()
    head.append(f"Jacobian d {y_name} / d {x_name}", style="bold")
    head.append(f"  ({rows.shape[0]} x {rows.shape[1]}: row i is the gradient of {y_name}.flatten()[i], "
                f"column j is {x_name}.flatten()[j])")
    how = Text(f"built like 001: {y_name}.backward(e_i, retain_graph=True) once per element of {y_name}, "
               f"reading {x_name}.grad each time", style="dim")
    return Group(head, how, Text(tensor_repr(rows)))
