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

from gradrepl.messages import localize, msg
from gradrepl.viz.explain import check_replayable
from gradrepl.viz.graph import Names, VizError, is_accumulate, shape_text, tensor_array, values_text

EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3
MAX_EVALUATIONS = 400      # reruns of the statements for the finite differences
MAX_JACOBIAN_ROWS = 400    # backward passes for :jacobian
MAX_SECONDS = 60           # refuse a check whose reruns would take longer than this
# nodes of functions with a corner, by the name a learner wrote
KINK_OPS = {"ReluBackward0": "relu", "AbsBackward0": "abs", "ClampBackward1": "clamp", "ClampMinBackward0": "clamp",
            "ClampMaxBackward0": "clamp", "MaximumBackward0": "maximum", "MinimumBackward0": "minimum",
            "MaxBackward0": "max", "MaxBackward1": "max", "MinBackward0": "min", "MinBackward1": "min",
            "AmaxBackward0": "amax", "AminBackward0": "amin", "LeakyReluBackward0": "leaky_relu",
            "HardtanhBackward0": "hardtanh", "Relu6Backward0": "relu6", "SgnBackward0": "sign"}


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
    kinks: list = field(default_factory=list)   # fields of the viz.kink message, one per leaf on a kink
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
            raise VizError(msg("vizerr.freed", "en", root=what)) from None
        raise VizError(msg("vizerr.backward_failed", "en", root=what, error=f"RuntimeError: {e}")) from None
    except Exception as e:  # noqa: BLE001 - a hook or a custom Function's backward raised
        raise VizError(msg("vizerr.backward_failed", "en", root=what, error=f"{type(e).__name__}: {e}")) from None
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
            raise VizError(msg("vizerr.interrupted", "en"))
        if not result.ok:
            err = result.errors[0]
            raise VizError(msg("vizerr.rerun_failed_line", "en", error=err.headline, line=err.line) if err.line
                           else msg("vizerr.rerun_failed", "en", error=err.headline))
        return session.namespace, injected


def gradcheck_source(source, namespace, root_name, *, vector=None, limits=None, rng_state=None,
                     filename="<gradcheck>", bare_names=None):
    """Check every named leaf of namespace[root_name]'s graph; see the module docstring."""
    from gradrepl.engine import functions as F
    from gradrepl.engine.tensor import Tensor, wrap

    target = namespace.get(root_name)
    if type(target) is not Tensor:
        raise VizError(msg("vizerr.not_tensor", "en", name=root_name))
    if target.grad_fn is not None:
        check_replayable(target.grad_fn, root_name, Names(namespace))
    leaves = _leaves_of(target)
    if not leaves:
        raise VizError(msg("vizerr.no_leaves", "en", root=root_name))
    by_id = {}
    for name, value in namespace.items():
        if isinstance(name, str) and type(value) is Tensor:
            by_id.setdefault(id(value), name)
    named = [(by_id.get(id(leaf)), leaf) for leaf in leaves]
    notes = [msg("viznote.unnamed", "en", shape=shape_text(leaf)) for n, leaf in named if n is None]
    named = [(n, leaf) for n, leaf in named if n is not None]
    if not named:
        raise VizError(msg("vizerr.unnamed_leaves", "en", root=root_name))
    evaluations = 1 + 2 * sum(leaf.numel() for _, leaf in named)
    if evaluations > MAX_EVALUATIONS:
        raise VizError(msg("vizerr.too_many", "en", root=root_name, count=evaluations, limit=MAX_EVALUATIONS))

    v = None
    vector_note = ""
    if vector is not None:
        v = np.asarray(tensor_array(vector), dtype=np.float64)
        if v.shape != tuple(target.shape):
            raise VizError(msg("vizerr.vector_shape", "en", root=root_name, shape=shape_text(target),
                               got=str(list(v.shape))))
        vector_note = msg("viznote.vector", "en", root=root_name)
    elif target.numel() != 1:
        vector_note = msg("viznote.ones", "en", root=root_name)

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
            notes.append(msg("viznote.own_dtype", "en", error=str(e)))
        seconds = (time.perf_counter() - started) * evaluations
        if seconds > MAX_SECONDS:
            raise VizError(msg("vizerr.too_slow", "en", root=root_name, count=evaluations, seconds=f"{seconds:.0f}"))
        result = ns.get(root_name)
        if type(result) is not Tensor:
            raise VizError(msg("vizerr.not_defined_again", "en", root=root_name))
        original = np.asarray(tensor_array(target), dtype=np.float64)
        again = np.asarray(tensor_array(result), dtype=np.float64)
        if again.shape != original.shape or not np.allclose(again, original, rtol=1e-3, atol=1e-4, equal_nan=True):
            raise VizError(msg("vizerr.not_reproduced", "en", root=root_name))
        missing = [n for n in names if n not in injected or all(injected[n] is not leaf for leaf in _leaves_of(result))]
        if missing:
            raise VizError(msg("vizerr.cannot_vary", "en", names=", ".join(missing)))
        coarse = tensor_array(result).dtype != np.float64
        eps, atol, rtol = (1e-3, 1e-2, 1e-2) if coarse else (EPS, ATOL, RTOL)
        weights = np.ones_like(again) if v is None else v
        seed = wrap(np.asarray(weights, dtype=tensor_array(result).dtype))
        grads = _backward(result, seed, [injected[n] for n in names], root_name, retain_graph=False,
                          names=Names(ns))
        checks, kinks = [], []
        base = float(np.sum(weights * again))
        for name, leaf, g in zip(names, [leaf for _, leaf in named], grads):
            analytic = np.zeros(tuple(leaf.shape)) if g is None else np.asarray(tensor_array(g), np.float64)
            numeric = np.zeros_like(analytic)
            sides = np.zeros((analytic.size, 2))    # one-sided slopes: left, right
            for j in range(analytic.size):
                def moved(delta):
                    def perturb(which, arr):
                        if which == name:
                            arr.reshape(-1)[j] += delta
                    out = replay.run(perturb)[0].get(root_name)
                    return float(np.sum(weights * np.asarray(tensor_array(out), np.float64)))
                up, down = moved(eps), moved(-eps)
                numeric.reshape(-1)[j] = (up - down) / (2 * eps)
                sides[j] = (base - down) / eps, (up - base) / eps
            diff = np.abs(analytic - numeric)
            scale = np.abs(numeric)
            rel = np.where(scale > 0, diff / np.where(scale > 0, scale, 1), diff)
            ok = bool(np.all(diff <= atol + rtol * scale))
            checks.append(LeafCheck(name, shape_text(leaf), analytic, numeric, float(diff.max(initial=0.0)),
                                    float(rel.max(initial=0.0)), ok))
            if not ok:
                kink = _kink(name, leaf, analytic, numeric, sides, target, atol, rtol)
                if kink is not None:
                    kinks.append(kink)
    finally:
        F.set_rng_state(saved_rng)
    if coarse:
        notes.append(msg("viznote.coarse", "en", root=root_name, dtype=str(tensor_array(result).dtype)))
    return GradcheckResult(root_name, checks, vector_note, notes, kinks, eps, atol, rtol)


def _kink(name, leaf, analytic, numeric, sides, target, atol, rtol):
    """The viz.kink fields when a failing element of `leaf` sits on a corner: the slopes on its
    two sides differ, autograd took one of them, and the graph has a function with a corner."""
    from gradrepl.viz.explain import _reachable
    from gradrepl.viz.graph import node_name

    def close(a, b):
        return abs(a - b) <= atol + rtol * abs(b)

    ops = []
    for node in _reachable(target.grad_fn) if target.grad_fn is not None else ():
        op = KINK_OPS.get(node_name(node))
        if op is not None and op not in ops:
            ops.append(op)
    if not ops:
        return None
    values = np.asarray(tensor_array(leaf), np.float64).reshape(-1)
    for j in range(analytic.size):
        a, n = float(analytic.reshape(-1)[j]), float(numeric.reshape(-1)[j])
        left, right = sides[j]
        if close(a, n) or close(left, right) or not (close(a, left) or close(a, right)):
            continue
        where = name if not tuple(leaf.shape) else f"{name}.flatten()[{j}]"
        return {"name": name, "op": " / ".join(ops), "where": f"{where} = {values_text(values[j:j + 1])[1:-1]}",
                "numeric": values_text(numeric.reshape(-1)[j:j + 1])[1:-1],
                "analytic": values_text(analytic.reshape(-1)[j:j + 1])[1:-1]}
    return None


def jacobian_rows(y, x, y_name="y", x_name="x", names=None):
    """d y / d x as a (y.numel(), x.numel()) array: one backward per element of y."""
    from gradrepl.engine.tensor import Tensor, wrap

    if type(y) is not Tensor or type(x) is not Tensor:
        raise VizError(msg("vizerr.not_tensor", "en", name=y_name if type(y) is not Tensor else x_name))
    if not x.requires_grad:
        raise VizError(msg("vizerr.no_requires_grad", "en", x=x_name))
    if y.grad_fn is None:
        raise VizError(msg("vizerr.no_grad_fn", "en", y=y_name))
    if y.numel() > MAX_JACOBIAN_ROWS:
        raise VizError(msg("vizerr.jacobian_size", "en", y=y_name, count=y.numel(), limit=MAX_JACOBIAN_ROWS))
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


def gradcheck_renderable(res, lang="en"):
    """The table, the notes, the failing values and the verdict (gradrepl's words in `lang`)."""
    from rich.cells import cell_len
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(title=msg("viz.gradcheck_title", lang, root=res.root, eps=f"{res.eps:g}"), title_justify="left")
    for key, just in (("viz.col_leaf", "left"), ("viz.col_shape", "left"), ("viz.col_abs", "right"),
                      ("viz.col_rel", "right"), ("viz.col_result", "left")):
        table.add_column(msg(key, lang), justify=just)
    for leaf in res.leaves:
        table.add_row(leaf.name, leaf.shape, _num(leaf.max_abs), _num(leaf.max_rel),
                      Text(msg("viz.pass", lang), style="bold green") if leaf.ok else
                      Text(msg("viz.fail", lang), style="bold red"))
    parts = [table]
    for note in ([res.vector_note] if res.vector_note else []) + res.notes:
        parts.append(Text(localize(note, lang), style="dim"))
    for leaf in res.leaves:
        if not leaf.ok:
            parts.append(Text(msg("viz.autograd_row", lang, name=leaf.name, value=values_text(leaf.analytic)),
                              style="red"))
            pad = " " * (cell_len(msg("viz.autograd_row", lang, name=leaf.name, value="")) - len("autograd "))
            parts.append(Text(f"{pad}{msg('viz.numeric_row', lang)} {values_text(leaf.numeric)}", style="red"))
    if not res.ok:
        kinks = [k for k in res.kinks]
        for kink in kinks:
            parts.append(Text(msg("viz.kink", lang, **kink), style="yellow"))
        if not kinks:
            parts.append(Text(msg("viz.why_differs", lang), style="dim"))
    verdict = Text()
    verdict.append(msg("viz.passed" if res.ok else "viz.failed", lang), style="bold green" if res.ok else "bold red")
    verdict.append(msg("viz.holds" if res.ok else "viz.not_holds", lang, atol=f"{res.atol:g}", rtol=f"{res.rtol:g}"))
    parts.append(verdict)
    return Group(*parts)


def jacobian_renderable(rows, y_name, x_name, lang="en"):
    from rich.console import Group
    from rich.text import Text

    from gradrepl.engine.printing import tensor_repr

    head = Text()
    head.append(msg("viz.jacobian_title", lang, y=y_name, x=x_name), style="bold")
    head.append(msg("viz.jacobian_shape", lang, rows=rows.shape[0], cols=rows.shape[1], y=y_name, x=x_name))
    how = Text(msg("viz.jacobian_how", lang, y=y_name, x=x_name), style="dim")
    return Group(head, how, Text(tensor_repr(rows)))
