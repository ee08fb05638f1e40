"""The autograd graph behind a tensor, as a small model, and its renderers.

`build_graph(tensor, names)` walks `tensor.grad_fn` and its `next_functions` (input
order, iteratively: a 100,000-node chain is fine) and returns a `Graph`: the grad_fn
nodes under PyTorch's names, the AccumulateGrad nodes, the leaf tensors they feed
(labelled with the session variables that hold them), and a tensor node wherever a
session variable holds an intermediate result, as 001 draws `y` between addBackward
and mulBackward. Ids (n0, n1, ...) follow a depth-first walk from the root in input
order, so the same graph always renders the same text.

Edges point the way gradients flow (root -> inputs), as 001's `graph BT` does. Long
repeated chains (a loop of thousands of ops) and long runs of alike inputs are collapsed
into one drawn copy with its count.

Renderers: `to_tree` (rich Tree), `to_text`, `to_dot` (Graphviz), `to_mermaid`, and
`render_image` (svg/png through Graphviz's `dot` program).
"""
import io
import shutil
import subprocess
from dataclasses import dataclass, field

from gradrepl.engine.printing import tensor_repr
from gradrepl.messages import localize, msg

SMALL = 10          # tensors with at most this many elements show their values
COLLAPSE_MIN = 4    # a segment repeated at least this many times is drawn once
MAX_PERIOD = 8      # longest repeated segment looked for
FORMATS = ("text", "dot", "mermaid", "svg", "png")


class VizError(Exception):
    """A problem the learner can fix (unknown name, no graph, no `dot`): message only."""


# ----------------------------------------------------------------- engine facts
def node_name(fn):
    """PyTorch's class name of a graph node (name() of C++ nodes carries a namespace)."""
    return fn.name().removeprefix("torch::autograd::")


def input_label(fn, k):
    """The derivative table's name of fn's k-th input: `self`, `other`, `tensors[1]` (a list input)."""
    inputs = fn.spec.inputs
    if len(inputs) == 1 and len(fn.next_functions) > 1:
        return f"{inputs[0].lstrip('*')}[{k}]"
    return inputs[k] if k < len(inputs) else f"input {k}"


def is_accumulate(fn):
    from gradrepl.engine.autograd import AccumulateGrad
    return isinstance(fn, AccumulateGrad)



def tensor_array(t):
    """The NumPy values of an engine tensor (read only)."""
    return t._a


def output_nr(t):
    return t._onr


def dtype_name(t):
    return str(t.dtype).removeprefix("torch.")


def shape_text(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def values_text(arr):
    """PyTorch's printed values on one line: `[[1., 1.], [1., 1.]]`."""
    text = " ".join(tensor_repr(arr).split())[len("tensor("):-1]
    return text.split(", dtype=")[0]      # the dtype is shown on its own


def tensor_grad(t):
    """.grad where reading it is legitimate (a leaf, or retain_grad()), never warning."""
    if t.is_leaf or t.retains_grad:
        return t.grad
    return None


class Names:
    """Which session variables hold which tensors."""

    def __init__(self, namespace=None):
        from gradrepl.engine.tensor import Tensor
        from gradrepl.nn.module import Module
        self._by_id = {}
        modules = []
        for name, value in (namespace or {}).items():
            if isinstance(name, str) and type(value) is Tensor:
                self._add(value, name)
            elif isinstance(name, str) and isinstance(value, Module):
                modules.append(value)
        # a model's parameters under their names in it (`fc1.weight`), as torchviz labels
        # them with make_dot(y, params=dict(model.named_parameters()))
        for model in modules:
            for pname, param in model.named_parameters():
                self._add(param, pname)

    def _add(self, t, name):
        names = self._by_id.setdefault(id(t), (t, []))[1]
        if name not in names:
            names.append(name)

    def of(self, t):
        entry = self._by_id.get(id(t))
        return entry[1] if entry is not None else []

    def tensors(self):
        return [t for t, _ in self._by_id.values()]


# ----------------------------------------------------------------- the model
@dataclass
class GNode:
    id: str
    kind: str                 # "tensor" (root / named intermediate), "op", "acc", "leaf"
    title: str                # variable name(s) or PyTorch node name
    details: tuple = ()       # short facts: shape, dtype, requires_grad, value, grad
    obj: object = None        # the engine Node (op, acc) or Tensor (tensor, leaf)


@dataclass
class GEdge:
    src: str
    dst: str
    label: str = ""           # the input's name in the derivative table (self, other, ...)
    index: int = 0            # the input's position in next_functions


@dataclass
class Group:
    """Drawn once, stands for `count` repetitions: a segment of a chain (`steps` nodes long),
    or (steps == 0) one of `count` alike inputs of the same node."""
    id: str
    members: list
    count: int
    hidden: int               # how many nodes are not drawn
    steps: int = 0

    def caption(self, lang="en"):
        if not self.steps:
            return msg("viz.alike_inputs", lang, count=self.count, hidden=self.hidden)
        if self.steps == 1:
            return msg("viz.step_repeats", lang, count=self.count, hidden=self.hidden)
        return msg("viz.steps_repeat", lang, steps=self.steps, count=self.count, hidden=self.hidden)


@dataclass
class Graph:
    root: str
    nodes: dict = field(default_factory=dict)          # id -> GNode, in walk order
    edges: list = field(default_factory=list)          # by source in node order, then input order
    missing: dict = field(default_factory=dict)        # id -> [(input position, name)] without gradient
    groups: list = field(default_factory=list)

    def children(self):
        out = {nid: [] for nid in self.nodes}
        for e in self.edges:
            out[e.src].append(e)
        return out

    def id_of(self, engine_node):
        """The model id of an engine grad_fn / AccumulateGrad node, or None (collapsed away)."""
        for n in self.nodes.values():
            if n.obj is engine_node and n.kind in ("op", "acc"):
                return n.id
        return None


def _tensor_details(t, leaf):
    facts = [shape_text(t), dtype_name(t)]
    if leaf:
        facts.append(f"requires_grad={t.requires_grad}")
    arr = tensor_array(t)
    if arr.size <= SMALL:
        facts.append(msg("viz.value", "en", value=values_text(arr)))
    g = tensor_grad(t)
    if g is not None:
        garr = tensor_array(g)
        facts.append(msg("viz.grad_fact", "en", value=values_text(garr) if garr.size <= SMALL else shape_text(g)))
    return tuple(facts)


def build_graph(tensor, names=None, *, root_name="", collapse=True):
    """The graph that produced `tensor` (a `Names` tells which variables hold what)."""
    names = names if names is not None else Names()
    graph = Graph(root="n0")

    def new_node(kind, title, details=(), obj=None):
        nid = f"n{len(graph.nodes)}"
        graph.nodes[nid] = GNode(nid, kind, title, details, obj)
        return nid

    def title_of(t, fallback):
        found = names.of(t)
        if t is tensor and root_name and root_name not in found:
            found = [root_name] + found
        return " = ".join(found) if found else fallback

    named_outputs = {}   # (engine node, output_nr) -> a tensor some variable holds
    for t in names.tensors():
        if t.grad_fn is not None and t is not tensor:
            named_outputs.setdefault((t.grad_fn, output_nr(t)), t)

    root_fn = tensor.grad_fn
    if root_fn is None and not tensor.requires_grad:
        raise VizError(msg("vizerr.no_graph", "en", root=root_name or "this tensor"))
    root_id = new_node("leaf" if root_fn is None else "tensor", title_of(tensor, "output"),
                       _tensor_details(tensor, root_fn is None), tensor)
    if root_fn is None:
        return graph

    seen = {}             # engine node, or (engine node, output_nr) of a named tensor -> id
    stack = [(root_id, root_fn, output_nr(tensor), "", 0)]
    while stack:
        parent, fn, nr, label, index = stack.pop()
        named = named_outputs.get((fn, nr))
        if named is not None:
            tid = seen.get((fn, nr))
            if tid is not None:
                graph.edges.append(GEdge(parent, tid, label, index))
                continue
            tid = seen[(fn, nr)] = new_node("tensor", title_of(named, "?"), _tensor_details(named, False), named)
            graph.edges.append(GEdge(parent, tid, label, index))
            parent, label, index = tid, "", 0
        nid = seen.get(fn)
        if nid is not None:
            graph.edges.append(GEdge(parent, nid, label, index))
            continue
        if is_accumulate(fn):
            nid = seen[fn] = new_node("acc", "AccumulateGrad", (), fn)
            graph.edges.append(GEdge(parent, nid, label, index))
            var = fn.variable
            leaf = new_node("leaf", title_of(var, msg("viznote.unnamed_leaf", "en")), _tensor_details(var, True), var)
            graph.edges.append(GEdge(nid, leaf))
            continue
        nid = seen[fn] = new_node("op", node_name(fn), (), fn)
        graph.edges.append(GEdge(parent, nid, label, index))
        pending = []
        for k, (child, child_nr) in enumerate(fn.next_functions):
            input_name = input_label(fn, k)
            if child is None:
                graph.missing.setdefault(nid, []).append((k, input_name))
            else:
                pending.append((nid, child, child_nr, input_name, k))
        stack.extend(reversed(pending))
    order = {nid: i for i, nid in enumerate(graph.nodes)}
    graph.edges.sort(key=lambda e: order[e.src])   # stable: inputs stay in order
    if collapse and collapse_repeats(graph):
        _renumber(graph)
    return graph


def _renumber(graph):
    new = {old: f"n{i}" for i, old in enumerate(graph.nodes)}
    graph.nodes = {new[old]: node for old, node in graph.nodes.items()}
    for node in graph.nodes.values():
        node.id = new[node.id]
    for e in graph.edges:
        e.src, e.dst = new[e.src], new[e.dst]
    graph.missing = {new[k]: v for k, v in graph.missing.items()}
    graph.root = new[graph.root]
    for g in graph.groups:
        g.members = [new[m] for m in g.members if m in new]


# ----------------------------------------------------------------- collapsing loops
def _topological(graph, children):
    indeg = {nid: 0 for nid in graph.nodes}
    for e in graph.edges:
        indeg[e.dst] += 1
    order, ready = [], [nid for nid, d in indeg.items() if d == 0]
    left = dict(indeg)
    while ready:
        nid = ready.pop()
        order.append(nid)
        for e in children[nid]:
            left[e.dst] -= 1
            if left[e.dst] == 0:
                ready.append(e.dst)
    return order, indeg


def collapse_repeats(graph, min_count=COLLAPSE_MIN):
    """Draw repeated structure once, with its count; True when anything was collapsed.

    Two kinds: a segment of up to MAX_PERIOD nodes repeated >= min_count times along a
    chain (a loop `y = y * w + 1`), and >= min_count alike inputs side by side of one node
    (`torch.stack([x[i] * 2 for i in range(1000)])`). Nodes are alike when their kinds,
    titles and private inputs match and they share the same shared nodes (leaves).
    """
    children = graph.children()
    order, indeg = _topological(graph, children)
    nodes = graph.nodes

    unshared = {nid for nid, node in nodes.items() if indeg[nid] <= 1 and node.kind in ("op", "tensor")}

    def shared(nid):
        return nid not in unshared

    # bottom-up: height, the chain successor (the tallest unshared input), a structure id
    # (alike subtrees get the same id) and a signature id (the same, the successor left out)
    height, chain, struct, sig, table = {}, {}, {}, {}, {}
    for nid in reversed(order):     # inputs before the nodes that use them
        kids = children[nid]
        best, tallest = None, 0
        for e in kids:
            h = height[e.dst]
            if h > tallest:
                tallest = h
            if e.dst in unshared and (best is None or h > height[best]):
                best = e.dst
        height[nid] = 1 + tallest
        chain[nid] = best
        node = nodes[nid]
        head = (node.kind, node.title, node.details if node.kind == "tensor" else (),
                tuple(graph.missing.get(nid, ())))
        inputs = [(e.label, e.dst if e.dst not in unshared else -1 - struct[e.dst]) for e in kids]
        struct[nid] = table.setdefault((head, tuple(inputs)), len(table))
        if best is not None:
            inputs = [(label, "chain") if e.dst == best else (label, ref)
                      for e, (label, ref) in zip(kids, inputs)]
            sig[nid] = table.setdefault((head, tuple(inputs)), len(table))
        else:
            sig[nid] = struct[nid]

    def private(nid):
        """nid and what hangs off it through unshared inputs, except its chain successor."""
        out, stack = [], [nid]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(e.dst for e in children[n] if not shared(e.dst) and not (n == nid and e.dst == chain[nid]))
        return out

    on_chain = {c for c in chain.values() if c is not None}
    hidden, retarget = set(), {}
    for start in order:
        if start in on_chain or chain[start] is None:
            continue
        seq = [start]
        while chain[seq[-1]] is not None:
            seq.append(chain[seq[-1]])
        if len(seq) < min_count:
            continue
        sigs = [sig[n] for n in seq]
        i = 0
        while i < len(seq):
            best = None
            for p in range(1, MAX_PERIOD + 1):
                end = i + p     # seq[i:end] repeats with period p
                while end < len(seq) and sigs[end] == sigs[end - p]:
                    end += 1
                k = (end - i) // p
                if k >= min_count and (best is None or p * k > best[0] * best[1]):
                    best = (p, k)
            if best is None:
                i += 1
                continue
            p, k = best
            members = [m for n in seq[i:i + p] for m in private(n)]
            gone = [m for n in seq[i + p:i + p * k] for m in private(n)]
            hidden.update(gone)
            after = seq[i + p * k] if i + p * k < len(seq) else None
            retarget[seq[i + p - 1]] = (seq[i + p], after)
            graph.groups.append(Group(f"g{len(graph.groups)}", members, k, len(gone), p))
            i += p * k

    def subtree(nid):
        out, stack = [], [nid]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(e.dst for e in children[n] if not shared(e.dst))
        return out

    relabel = {}
    for nid in order:               # alike inputs side by side: stack([x[i] * 2 for i in range(1000)])
        if nid in hidden:
            continue
        kids = children[nid]
        fixed = chain[nid] if nid in retarget else None     # an edge the chain pass redirected

        def groupable(e):
            return not shared(e.dst) and e.dst != fixed and e.dst not in hidden

        k = 0
        while k < len(kids):
            first = kids[k]
            end = k + 1
            if groupable(first):
                while end < len(kids) and groupable(kids[end]) and struct[kids[end].dst] == struct[first.dst]:
                    end += 1
            if end - k >= min_count:
                gone = [m for e in kids[k + 1:end] for m in subtree(e.dst)]
                hidden.update(gone)
                relabel[(nid, first.dst)] = f"{first.label} .. {kids[end - 1].label}"
                graph.groups.append(Group(f"g{len(graph.groups)}", subtree(first.dst), end - k, len(gone)))
            k = end
    if not hidden:
        return False
    position = {nid: i for i, nid in enumerate(nodes)}
    graph.groups.sort(key=lambda g: position[g.members[0]])
    for i, g in enumerate(graph.groups):
        g.id = f"g{i}"
    edges = []
    for e in graph.edges:
        if e.src in hidden:
            continue
        old_new = retarget.get(e.src)
        if old_new is not None and e.dst == old_new[0]:
            if old_new[1] is None:
                continue
            e = GEdge(e.src, old_new[1], e.label, e.index)
        elif e.dst in hidden:
            continue
        elif (e.src, e.dst) in relabel:
            e = GEdge(e.src, e.dst, relabel[(e.src, e.dst)], e.index)
        edges.append(e)
    graph.edges = edges
    for nid in hidden:
        del nodes[nid]
        graph.missing.pop(nid, None)
    return True


# ----------------------------------------------------------------- renderers
_STYLE = {"tensor": "bold yellow", "leaf": "bold green", "op": "bold cyan", "acc": "magenta"}


def _group_heads(graph):
    return {g.members[0]: g for g in graph.groups}


def details_text(details, lang="en"):
    """A node's facts on one line: shape, dtype, requires_grad, value, grad (named in `lang`)."""
    if lang == "en":
        return ", ".join(details)
    facts = []
    for fact in details:
        for key in ("viz.value", "viz.grad_fact"):
            word = msg(key, "en", value="")
            if fact.startswith(word):
                fact = msg(key, lang, value=fact[len(word):])
        facts.append(fact)
    return "，".join(facts)


def to_tree(graph, lang="en"):
    """A rich Tree: the root on top, each node's inputs below it in input order (words in `lang`)."""
    from rich.text import Text
    from rich.tree import Tree

    children = graph.children()
    indeg = {nid: 0 for nid in graph.nodes}
    for e in graph.edges:
        indeg[e.dst] += 1
    heads = _group_heads(graph)
    colon = "：" if lang == "zh" else ": "

    def leaf_of(nid):
        return next((graph.nodes[e.dst].title for e in children[nid]), "?")

    def label(nid, edge_label, repeat):
        node = graph.nodes[nid]
        text = Text()
        if edge_label:
            text.append(f"{edge_label}{colon}", style="dim")
        text.append(localize(node.title, lang), style=_STYLE[node.kind])
        if repeat:
            text.append(msg("viz.acc_shown_above", lang, leaf=leaf_of(nid)) if node.kind == "acc" else
                        f" #{nid[1:]}" + msg("viz.shown_above", lang), style="dim")
            return text
        if indeg[nid] > 1 and node.kind in ("op", "tensor"):
            text.append(f" #{nid[1:]}", style="dim")
        if node.details:
            text.append("  " + details_text(node.details, lang))
        group = heads.get(nid)
        if group is not None:
            text.append(f"  ⟳ {group.caption(lang)}", style="italic")
        return text

    def inputs(nid):
        """(position, edge or missing input name) in input order."""
        items = [(e.index, e) for e in children[nid]]
        items += [(k, name) for k, name in graph.missing.get(nid, ())]
        return [item for _, item in sorted(items, key=lambda pair: pair[0])]

    tree = Tree(label(graph.root, "", False), guide_style="dim")
    done = {graph.root}
    stack = [(tree, item) for item in reversed(inputs(graph.root))]
    while stack:
        branch, item = stack.pop()
        if isinstance(item, str):
            branch.add(Text(f"{item}{colon}{msg('viz.no_gradient', lang)}", style="dim"))
            continue
        repeat = item.dst in done
        sub = branch.add(label(item.dst, item.label, repeat))
        if not repeat:
            done.add(item.dst)
            stack.extend((sub, c) for c in reversed(inputs(item.dst)))
    return tree


def to_text(graph, width=80, color=False, lang="en"):
    """The tree as plain (or ANSI-coloured) text, `width` columns wide."""
    from rich.console import Console
    out = io.StringIO()
    console = Console(file=out, width=width, color_system="standard" if color else None,
                      force_terminal=color, no_color=not color, highlight=False)
    console.print(to_tree(graph, lang))
    return out.getvalue()


def _dot_quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_DOT_SHAPE = {
    "tensor": 'shape=ellipse, style=filled, fillcolor="#fff3c4"',
    "leaf": 'shape=ellipse, style=filled, fillcolor="#d5f5d5"',
    "op": 'shape=box, style=filled, fillcolor="#dcebff"',
    "acc": 'shape=box, style="rounded,filled", fillcolor="#eeeeee"',
}


def to_dot(graph):
    """Graphviz DOT text; edges point the way gradients flow, the root at the bottom."""
    lines = ["digraph autograd {", "  rankdir=BT;", '  node [fontname="Helvetica", fontsize=11];',
             '  edge [fontname="Helvetica", fontsize=9];']
    for nid, node in graph.nodes.items():
        facts = node.details
        if len(facts) >= 2:   # shape and dtype on one line
            facts = (f"{facts[0]} {facts[1]}",) + facts[2:]
        text = "\n".join((node.title,) + facts)
        lines.append(f"  {nid} [label={_dot_quote(text)}, {_DOT_SHAPE[node.kind]}];")
    for nid, names in graph.missing.items():
        for k, name in names:
            lines.append(f'  {nid}_none{k} [label={_dot_quote(name + ": no gradient")}, shape=plaintext, '
                         'fontcolor=gray50];')
            lines.append(f"  {nid} -> {nid}_none{k} [style=dotted, arrowhead=none];")
    for e in graph.edges:
        attrs = f" [label={_dot_quote(e.label)}]" if e.label else ""
        lines.append(f"  {e.src} -> {e.dst}{attrs};")
    for g in graph.groups:
        lines.append(f"  subgraph cluster_{g.id} {{")
        lines.append(f"    label={_dot_quote(g.caption())};")
        lines.append("    style=dashed;")
        lines.append("    " + "; ".join(m for m in g.members if m in graph.nodes) + ";")
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text):
    return text.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def to_mermaid(graph):
    """A Mermaid `graph BT` block like 001's: circles for tensors, boxes for functions."""
    lines = ["graph BT;"]
    for nid, node in graph.nodes.items():
        if node.kind in ("tensor", "leaf"):
            text = _mermaid_text(node.title) + "<br/>" + _mermaid_text(" ".join(node.details[:2]))
            lines.append(f'{nid}(("{text}"))')
        else:
            lines.append(f'{nid}["{_mermaid_text(node.title)}"]')
    for e in graph.edges:
        lines.append(f"{e.src}-->{e.dst}")
    for g in graph.groups:
        lines.append(f'subgraph {g.id} ["{_mermaid_text(g.caption())}"]')
        lines.extend(f"  {m}" for m in g.members if m in graph.nodes)
        lines.append("end")
    return "\n".join(lines) + "\n"


def render_image(dot_text, fmt):
    """SVG or PNG bytes from DOT text through Graphviz's `dot`."""
    exe = shutil.which("dot")
    if exe is None:
        raise VizError(msg("vizerr.no_dot", "en", fmt=fmt))
    done = subprocess.run([exe, f"-T{fmt}"], input=dot_text.encode(), capture_output=True, timeout=60)
    if done.returncode != 0:
        raise VizError(msg("vizerr.dot_failed", "en", error=done.stderr.decode(errors="replace").strip()[:300]))
    return done.stdout
