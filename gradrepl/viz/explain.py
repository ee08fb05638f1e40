"""The chain rule, step by step, as the engine runs it (issue 7's `:explain`).

`explain_tensor` runs backward from a tensor with the engine's own `run_backward`
(retain_graph=True, accumulate=False: the learner's .grad values and the graph are left
as they were; hooks the learner registered run, as in any backward) and records, for
each node in the order the engine visits it: its local derivative rule (the text of the
same derivative table the engine computes with), the incoming gradient, and the
gradient sent along each input edge, which for a leaf is what AccumulateGrad adds into
.grad. The leaf gradients at the end are the ones the engine returned. A short symbolic
summary is added where `symbolic` can derive one.
"""
import io
from dataclasses import dataclass, field

import numpy as np

from gradrepl.messages import msg
from gradrepl.viz.graph import (Names, VizError, input_label, is_accumulate, node_name, output_nr, shape_text,
                                 tensor_array, tensor_grad, values_text)

SHOW_VALUES = 32    # gradients with at most this many elements are printed in full
SHOW_STEPS = (30, 10)   # a longer trace shows its first and last steps only


@dataclass
class Send:
    input_name: str
    target: str               # "MulBackward0", "AccumulateGrad -> x.grad", "" (nothing)
    grad: object              # NumPy array (Big when too large to print), or None when nothing flows
    leaf: object = None       # the leaf tensor when target is AccumulateGrad
    named: str = ""           # the session name(s) of the node's output ("y"), if any


@dataclass
class Step:
    number: int
    name: str                 # PyTorch's node name
    output: str               # session name(s) of the node's output, or ""
    rules: list               # [(input name, derivative rule text)] for inputs a gradient goes to
    operands: list            # [(name, value text)]: the saved values the rules use
    grad_in: list             # incoming gradient per output of the node (arrays, Big or None)
    contributions: int        # how many gradients were summed into grad_in
    sends: list = field(default_factory=list)


@dataclass
class Explanation:
    root: str
    root_grad: object         # the gradient backward starts from
    implicit: bool            # True: ones, as backward() uses for a one-element output
    steps: list
    leaf_grads: list          # [(leaf title, leaf tensor, gradient array or None)]
    summary: list = field(default_factory=list)   # lines of the symbolic summary


def _reachable(root_fn):
    """Every engine node reachable from root_fn, depth first in input order (iterative)."""
    seen, stack, out = set(), [root_fn], []
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        out.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions) if child is not None)
    return out


def check_replayable(root_fn, root_name, names):
    """A VizError in words when a tensor the graph saved was changed in place afterwards
    (`w -= lr * w.grad` in a training loop): backward would fail, in PyTorch too."""
    changed = []
    for node in _reachable(root_fn):
        for t, version in zip(node.saved, node.versions):
            if version is not None and hasattr(t, "_ver") and t._ver[0] != version:
                label = " = ".join(names.of(t)) or msg("vizerr.shape_of", "en", shape=shape_text(t))
                if label not in changed:
                    changed.append(label)
    if changed:
        raise VizError(msg("vizerr.changed", "en", names=", ".join(changed), root=root_name))


def _title(t, names, fallback):
    found = names.of(t)
    return " = ".join(found) if found else fallback


def explain_tensor(tensor, names=None, *, root_name="output", gradient=None, source=None):
    """Run backward from `tensor` with a trace; nothing in the session changes."""
    from gradrepl.engine.autograd import RETAIN_MSG, run_backward
    from gradrepl.engine.tensor import wrap

    names = names if names is not None else Names()
    if tensor.grad_fn is None:
        if tensor.requires_grad:
            raise VizError(msg("vizerr.is_leaf", "en", root=root_name))
        raise VizError(msg("vizerr.no_graph_short", "en", root=root_name))
    arr = tensor_array(tensor)
    implicit = gradient is None
    if implicit:
        root_grad = np.ones_like(arr)
    else:
        root_grad = np.asarray(tensor_array(gradient), dtype=arr.dtype)
        if root_grad.shape != arr.shape:
            raise VizError(msg("vizerr.grad_shape", "en", root=root_name, shape=shape_text(tensor),
                               got=str(list(root_grad.shape))))

    nodes = _reachable(tensor.grad_fn)
    leaves = [n.variable for n in nodes if is_accumulate(n)]
    outputs = {}
    for t in names.tensors():
        if t.grad_fn is not None:
            outputs.setdefault((t.grad_fn, output_nr(t)), _title(t, names, ""))
    outputs.setdefault((tensor.grad_fn, output_nr(tensor)), root_name)
    leaf_titles = {id(v): _title(v, names, msg("viznote.unnamed_leaf", "en")) for v in leaves}

    received = {}
    steps = []

    def trace(node, grads_in, grads_out):
        flows = {k for k, (child, _) in enumerate(node.next_functions) if child is not None}
        real = _all_real(node, grads_in)
        rules = [(name, rule.replace(".conj()", "") if real else rule)
                 for k, (name, rule) in enumerate(zip(node.spec.inputs, node.spec.formulas)) if k in flows]
        output = ", ".join(filter(None, (outputs.get((node, k), "") for k in range(node.n_out))))
        step = Step(len(steps) + 1, node_name(node), output, rules, _operands(node),
                    [_kept(g) for g in grads_in], received.get(node, 1))
        for k, (child, nr) in enumerate(node.next_functions):
            input_name = input_label(node, k)
            g = None if grads_out is None or k >= len(grads_out) else _kept(grads_out[k])
            if child is None:
                step.sends.append(Send(input_name, "", None))
                continue
            if g is not None:
                received[child] = received.get(child, 0) + 1
            if is_accumulate(child):
                step.sends.append(Send(input_name, f"AccumulateGrad -> {leaf_titles[id(child.variable)]}.grad",
                                       g, child.variable))
            else:
                named = outputs.get((child, nr))
                step.sends.append(Send(input_name, node_name(child), g, named=named or ""))
        steps.append(step)

    check_replayable(tensor.grad_fn, root_name, names)
    saved = _save_retained(nodes)
    try:
        with np.errstate(all="ignore"):     # nan and inf show in the values, as in PyTorch
            grads = run_backward([tensor], [wrap(root_grad)], retain_graph=True, create_graph=False,
                                 inputs=leaves, accumulate=False, allow_unused=True, trace=trace,
                                 replay=True)
    except RuntimeError as e:
        if str(e) == RETAIN_MSG:
            raise VizError(msg("vizerr.freed_explain", "en", root=root_name)) from None
        raise VizError(msg("vizerr.backward_failed", "en", root=root_name, error=f"RuntimeError: {e}")) from None
    except Exception as e:  # a hook or a custom Function's backward raised
        raise VizError(msg("vizerr.backward_failed", "en", root=root_name,
                           error=f"{type(e).__name__}: {e}")) from None
    finally:
        _restore_retained(saved)
    leaf_grads = [(leaf_titles[id(v)], v, None if g is None else tensor_array(g)) for v, g in zip(leaves, grads)]
    result = Explanation(root_name, root_grad, implicit, steps, leaf_grads)
    if source is not None:
        from gradrepl.viz.symbolic import summarize
        values = {}
        for t in names.tensors():
            for name in names.of(t):
                values[name] = tensor_array(t)
        result.summary = summarize(source, root_name, tensor, leaf_grads, values, gradient is None)
    return result


_SAVED_INPUTS = {"MulBackward0": ("self", "other"), "DivBackward0": ("self", "other")}


def _all_real(node, grads_in):
    """No complex value at this step: the formulas' conj() (PyTorch's complex convention) is the
    identity and the chain rule reads without it."""
    values = [tensor_array(v) for v in node.saved if hasattr(v, "_a")]
    values += [g for g in grads_in if g is not None]
    return not any(getattr(v, "dtype", None) is not None and v.dtype.kind == "c" for v in values)


def _operands(node):
    """The saved values a rule mentions (self, other, exponent), where the node keeps them."""
    name = node_name(node)
    out = []
    if name in _SAVED_INPUTS and len(node.saved) == 2:
        for label, value in zip(_SAVED_INPUTS[name], node.saved):
            out.append((label, _kept(tensor_array(value)) if hasattr(value, "_a") else repr(value)))
    elif name == "PowBackward0" and node.saved:
        out.append(("self", _kept(tensor_array(node.saved[0]))))
        out.append(("exponent", repr(node.ctx)))
    return out


def _save_retained(nodes):
    """retain_grad() tensors get .grad written during backward: keep what they had."""
    saved = []
    for node in nodes:
        for ref in (node.retains or {}).values():
            t = ref()
            if t is not None:
                saved.append((t, tensor_grad(t)))
    return saved


def _restore_retained(saved):
    for t, g in saved:
        t.grad = g


# ----------------------------------------------------------------- rendering
class Big:
    """Stands for a gradient too large to print: its shape only (a long loop over big
    tensors would otherwise keep a copy of every gradient)."""

    def __init__(self, arr):
        self.shape, self.size = tuple(arr.shape), int(arr.size)


def _kept(g):
    """What a step keeps of a gradient: a copy when it will be printed, else its shape."""
    if g is None:
        return None
    return np.array(g) if np.size(g) <= SHOW_VALUES else Big(g)


def _values(arr, lang="en"):
    if arr is None:
        return "None"
    if isinstance(arr, str):    # a saved number's repr
        return arr
    if isinstance(arr, Big) or arr.size > SHOW_VALUES:
        return msg("viz.big", lang, shape=str(list(arr.shape)), count=arr.size)
    return values_text(arr)


def _label(key, lang):
    """A row label of a step (rule, with, grad) padded to 6 terminal cells."""
    from rich.cells import cell_len
    text = msg(key, lang)
    return f"   {text}{' ' * max(1, 7 - cell_len(text))}"


def to_renderable(ex, lang="en"):
    """Rich renderables: the steps, the leaf gradients, the summary (gradrepl's words in `lang`)."""
    from rich.console import Group
    from rich.text import Text

    from gradrepl.messages import colon, localize

    def values(arr):
        return _values(arr, lang)

    unnamed = msg("viznote.unnamed_leaf", "en")

    parts = []
    head = Text()
    head.append(msg("viz.explain_title", lang, root=ex.root), style="bold")
    head.append(msg("viz.explain_order", lang))
    parts.append(head)
    start = Text(msg("viz.start", lang), style="dim")
    if ex.implicit:
        key = "viz.start_scalar" if ex.root_grad.size == 1 else "viz.start_ones"
        start.append(msg(key, lang, root=ex.root, value=values(ex.root_grad)))
    else:
        start.append(msg("viz.start_given", lang, root=ex.root, value=values(ex.root_grad)))
    parts.append(start)
    first, last = SHOW_STEPS
    shown = ex.steps
    if len(shown) > first + last:
        shown = ex.steps[:first] + [None] + ex.steps[-last:]
    for step in shown:
        parts.append(Text(""))
        if step is None:
            parts.append(Text(msg("viz.more_steps", lang, count=len(ex.steps) - first - last), style="italic"))
            continue
        title = Text()
        title.append(f"{step.number}. ", style="bold")
        title.append(step.name, style="bold cyan")
        if step.output:
            title.append(msg("viz.produced", lang, output=step.output), style="yellow")
        if step.contributions > 1:
            title.append(msg("viz.sum_of", lang, count=step.contributions), style="dim")
        parts.append(title)
        for name, rule in step.rules:
            line = Text(_label("viz.rule", lang), style="dim")
            line.append(f"grad_{name} = {rule}")
            parts.append(line)
        if step.operands:
            line = Text(_label("viz.with", lang), style="dim")
            line.append(", ".join(f"{name} = {values(value)}" for name, value in step.operands))
            parts.append(line)
        line = Text(_label("viz.grad", lang), style="dim")
        if len(step.grad_in) == 1:
            line.append(values(step.grad_in[0]))
        else:
            line.append("; ".join(msg("viz.output_k", lang, k=k, value=values(g))
                                  for k, g in enumerate(step.grad_in)))
        parts.append(line)
        for send in step.sends:
            line = Text(f"   {send.input_name:<6} ", style="dim")
            if not send.target:
                line.append("-> " + msg("viz.nothing", lang))
            elif send.grad is None:
                named = (f"（{send.named}）" if lang == "zh" else f" ({send.named})") if send.named else ""
                line.append(f"-> {send.target}{named}{colon(lang)}None")
            else:
                target = send.target.replace(unnamed, localize(unnamed, lang))
                if send.named:
                    target += f"（{send.named}）" if lang == "zh" else f" ({send.named})"
                line.append(f"-> {target}", style="green" if send.leaf is not None else "cyan")
                line.append(("  += " if send.leaf is not None else colon(lang)) + values(send.grad))
            parts.append(line)
    parts.append(Text(""))
    parts.append(Text(msg("viz.result", lang), style="bold"))
    for title, leaf, g in ex.leaf_grads:
        line = Text("   ")
        line.append(f"{localize(title, lang)}.grad", style="bold green")
        line.append(" = " + (values(g) if g is not None else msg("viz.no_grad_reached", lang)))
        parts.append(line)
    if ex.summary:
        parts.append(Text(""))
        parts.append(Text(msg("viz.symbolically", lang), style="bold"))
        parts.extend(Text("   " + localize(s, lang)) for s in ex.summary)
    return Group(*parts)


def to_text(ex, width=80, color=False, lang="en"):
    from rich.console import Console
    out = io.StringIO()
    console = Console(file=out, width=width, color_system="standard" if color else None,
                      force_terminal=color, no_color=not color, highlight=False, soft_wrap=False)
    console.print(to_renderable(ex, lang))
    return out.getvalue()
