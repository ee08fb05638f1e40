"""Graph nodes, grad mode and the backward engine. Pure computation, no I/O.

A Node is one entry of the backward graph (PyTorch's grad_fn). It carries its op spec
(its Rule: name and derivative, from ops/registry.py), its edges to the nodes of its inputs
(`next_functions`), the tensors it saved with their versions, and small non-tensor
context. `run_backward` walks the graph in PyTorch's order: a node runs once every
node depending on it has run; among ready nodes the most recently created first, and
AccumulateGrad nodes before all others.
"""
import heapq
import itertools
import weakref

import numpy as np

from gradrepl.engine import dtypes

_seq = itertools.count()
# Nodes written in C++ inside PyTorch report a qualified name() (their repr stays short).
_CPP_NAMES = {"AccumulateGrad": "torch::autograd::AccumulateGrad", "CopySlices": "torch::autograd::CopySlices",
              "CopyBackwards": "torch::autograd::CopyBackwards", "NotImplemented": "torch::autograd::NotImplemented"}
_ACC_BASE = 1 << 62  # AccumulateGrad nodes run before any other ready node (as in PyTorch)

# Grad mode is a process-wide flag, as in PyTorch (one session per process).
GRAD = [True]

# True while a built-in rule runs under create_graph=True: its formula is PyTorch's C++ code,
# where `tensor * 2` is mul(Tensor, Scalar) (MulBackward1), `tensor + 1` AddBackward1 and
# `1 - tensor` SubBackward0, unlike Python's `x * 2` (MulBackward0). Hooks and custom Functions
# run with it off.
CPP_FORMULA = [False]

# The REPL's tutor keeps saved values after backward so that :explain can replay a graph
# that backward already ran; the graph still counts as freed (a second backward fails as
# in PyTorch). Script mode leaves this off: memory is released as PyTorch releases it.
KEEP_SAVED = [False]

# Above 0 while vmap runs its function on a slice other than the last: vmap here calls the
# function once per slice, where PyTorch runs one batched backward, so a graph the function
# differentiates (autograd.grad(y, x, v) of a y made outside) must outlive all but the last call.
VMAP_RETAIN = [0]

# The two array namespaces rules compute with (gradrepl.engine.xp): NumPy arrays for an
# ordinary backward, Tensors for create_graph=True. The tensor layer hands them over once
# (use_spaces), so this engine never imports the Tensor class.
_SPACES = [None, None]


def use_spaces(arrays, tensors):
    _SPACES[0], _SPACES[1] = arrays, tensors


def grad_enabled() -> bool:
    return GRAD[0]


SAVE_CHECK = [None]   # set once inference tensors exist: refuses to save one for backward


SAVED_HOOKS = []     # torch.autograd.graph.saved_tensors_hooks: a stack of (pack, unpack)
DEFER_PACK = [False]  # Rule.node packs a node's saved values itself, once its output has the node


class Packed:
    """A saved value given to a saved_tensors_hooks pack hook: backward reads it through the
    unpack hook (once per read, as PyTorch's SavedVariable does)."""

    __slots__ = ("value", "unpack", "_ver", "group")
    _fn = None
    _onr = 0

    def __init__(self, value, unpack, version, group=None):
        self.value = value
        self.unpack = unpack
        self._ver = version      # the saved tensor's version counter: in-place checks still apply
        self.group = group       # the node's other packed values, unpacked together (PackGroup)

    @property
    def dtype(self):
        return dtypes.of(self.unpack(self.value)._a)

    def tensor(self):
        return self.unpack(self.value) if self.group is None else self.group.take(self)

    @property
    def _a(self):
        return self.tensor()._a


class PackGroup:
    """A node's packed values: a backward reads them in the node's order of parameters, but
    PyTorch's generated node unpacks them all at once in its own order (see pack_saved); the
    first read unpacks every member in that order and each read takes its own."""

    __slots__ = ("members", "ready")

    def __init__(self):
        self.members = []
        self.ready = None

    def take(self, packed):
        if self.ready is None:
            self.ready = {id(m): m.unpack(m.value) for m in self.members}
        t = self.ready.pop(id(packed))
        if not self.ready:
            self.ready = None
        return t


def pack_saved(node, output=None, needed_by=None):
    """Run the innermost pack hook on each tensor node saves (as PyTorch: not on a value no
    gradient that runs reads; the node's own output is given as the output tensor), in the
    order of PyTorch's generated nodes: the saved inputs by name, then the outputs."""
    pack, unpack = SAVED_HOOKS[-1]
    saved = node.saved
    names = getattr(node.spec, "saved_names", None)
    order = range(len(saved))
    if names is not None and len(names) == len(saved) > 1:
        order = sorted(order, key=lambda k: (type(saved[k]) is SavedOutput, names[k]))
    out = list(saved)
    group = PackGroup()
    hooks = SAVED_HOOKS[:]
    SAVED_HOOKS.clear()      # what the pack hook itself computes saves nothing through it
    try:
        for k in order:
            s = saved[k]
            if getattr(s, "_a", None) is None or (needed_by is not None and
                                                  not any(node.edges[i] is not None for i in needed_by[k])) \
                    or (node.versions and node.versions[k] is None):
                continue
            t = output if type(s) is SavedOutput and output is not None else s
            out[k] = Packed(pack(t), unpack, s._ver, group)
            group.members.append(out[k])
    finally:
        SAVED_HOOKS[:] = hooks
    node.saved = tuple(out)


def pack_values(values):
    """A custom Function's save_for_backward tensors through the innermost pack hook."""
    pack, unpack = SAVED_HOOKS[-1]
    hooks = SAVED_HOOKS[:]
    SAVED_HOOKS.clear()
    try:
        return tuple([v if getattr(v, "_a", None) is None else Packed(pack(v), unpack, v._ver) for v in values])
    finally:
        SAVED_HOOKS[:] = hooks


class Node:
    """A backward function: `<MulBackward0 object at 0x...>` for user code."""

    __slots__ = ("spec", "edges", "saved", "versions", "ctx", "seq", "released", "kept", "saved_outputs",
                 "tensor_hooks", "retains", "pre_hooks", "post_hooks", "n_out", "__weakref__")

    def __init__(self, spec, edges, saved=(), ctx=None):
        self.spec = spec
        self.edges = edges
        self.saved = saved
        self.versions = tuple([t._ver[0] for t in saved]) if saved else ()  # saved holds Tensors only
        if saved and SAVE_CHECK[0] is not None:
            SAVE_CHECK[0](saved)
        self.ctx = ctx
        self.seq = next(_seq)
        self.released = False
        self.kept = False          # released, but its values kept for the tutor's :explain replay
        self.saved_outputs = ()    # indices into `saved` of this node's own outputs
        self.tensor_hooks = None   # {output_nr: [hook, ...]} from register_hook on outputs
        self.retains = None        # {output_nr: weakref(tensor)} from retain_grad()
        self.pre_hooks = None
        self.post_hooks = None
        self.n_out = 1
        if saved and SAVED_HOOKS and not DEFER_PACK[0]:
            pack_saved(self)

    def name(self):
        return _CPP_NAMES.get(self.spec.name, self.spec.name)

    @property
    def next_functions(self):
        return tuple((None, 0) if e is None else e for e in self.edges)

    @property
    def metadata(self):
        return {}

    def register_hook(self, fn):
        if self.post_hooks is None:
            self.post_hooks = []
        return RemovableHandle(self.post_hooks, fn)

    def register_prehook(self, fn):
        if self.pre_hooks is None:
            self.pre_hooks = []
        return RemovableHandle(self.pre_hooks, fn)

    def __repr__(self):
        return f"<{getattr(self.spec, 'repr_prefix', '')}{self.spec.name} object at {id(self):#x}>"

    def __call__(self, *grads):
        raise RuntimeError("calling a grad_fn directly is not supported in gradrepl; use backward()")


class AccumulateGrad(Node):
    """The sink of a leaf tensor that requires grad: adds incoming gradients into .grad."""

    __slots__ = ("variable",)

    def __init__(self, variable):
        super().__init__(ACCUMULATE_SPEC, ())
        self.seq = _ACC_BASE + self.seq
        self.variable = variable


class _AccSpec:
    name = "AccumulateGrad"
    formulas = ("x.grad += grad",)
    inputs = ()


ACCUMULATE_SPEC = _AccSpec()


class RemovableHandle:
    """What register_hook returns: `handle.remove()` unregisters the hook."""

    __slots__ = ("_hooks", "_fn", "id")
    _ids = itertools.count()

    def __init__(self, hooks, fn):
        self._hooks = hooks
        self._fn = fn
        self.id = next(self._ids)
        hooks.append(fn)

    def remove(self):
        try:
            self._hooks.remove(self._fn)
        except ValueError:
            pass

    def __repr__(self):
        return f"<torch.utils.hooks.RemovableHandle object at {id(self):#x}>"


class SavedOutput:
    """A node's own output kept for its backward (exp: grad * result) without the Tensor:
    holding the Tensor would make a Tensor <-> Node cycle that keeps every discarded output
    alive until the cycle collector runs. Shares the array and the version counter; for
    create_graph the tensor namespace unpacks it to a Tensor whose grad_fn is the node again
    (as PyTorch's SavedVariable does)."""

    __slots__ = ("_a", "_ver", "_onr", "_node")
    _fn = None

    def __init__(self, t, node):
        self._a = t._a
        self._ver = t._ver
        self._onr = t._onr
        self._node = weakref.ref(node)

    @property
    def dtype(self):
        return dtypes.of(self._a)


def accumulator(t):
    """The (cached) AccumulateGrad node of a leaf tensor that requires grad."""
    ref = t._acc
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._acc = weakref.ref(node)
    return node


# Views made under no_grad of a tensor that requires grad (ops.common.no_grad_view), by id (a
# WeakSet would compare Tensors with ==): id -> (weak reference, version when made). PyTorch
# refuses to modify them in place with grad mode on (their creation_meta is NO_GRAD_MODE), and
# once they or their base changed in place their grad_fn is invalid: printing says
# grad_fn=<Invalid>, reading grad_fn or using them where autograd records raises.
NO_GRAD_VIEWS = {}
STALE_VIEW_MSG = ("A view was created in no_grad mode and its base or another view of its base has been modified "
                  "inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is "
                  "forbidden. You can clarify your code by moving both the view and the inplace either both inside "
                  "the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the "
                  "inplace to be tracked).")


def no_grad_view_entry(t):
    """The registry entry of t when it is a view made under no_grad, else None."""
    entry = NO_GRAD_VIEWS.get(id(t))
    if entry is not None and entry[0]() is t:
        return entry
    return None


def stale_no_grad_view(t):
    """True when t is a view made under no_grad whose data changed in place since."""
    if t._base is None or not NO_GRAD_VIEWS:
        return False
    entry = no_grad_view_entry(t)
    return entry is not None and t._ver[0] != entry[1]


def edge_of(t):
    fn = t._fn
    if fn is not None:
        return (fn, t._onr)
    if t._rg:
        if t._base is not None and NO_GRAD_VIEWS and stale_no_grad_view(t):
            raise RuntimeError(STALE_VIEW_MSG)
        return (accumulator(t), 0)
    return None


def make_node(spec, inputs, saved=(), ctx=None):
    """A node for an op on `inputs` (tensors or None), or None when no input needs grad."""
    edges = tuple(None if t is None else edge_of(t) for t in inputs)
    for e in edges:
        if e is not None:
            return Node(spec, edges, saved, ctx)
    return None


RETAIN_MSG = ("Trying to backward through the graph a second time (or directly access saved tensors "
              "after they have already been freed). Saved intermediate values of the graph are freed "
              "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
              "backward through the graph a second time or if you need to access saved tensors after "
              "calling backward.")


def _strip_backward(name):
    """PyTorch's op name in messages: MulBackward0 -> Mul, UnsqueezeBackward1 -> Unsqueeze1."""
    i = name.rfind("Backward")
    if i <= 0:
        return name
    number = name[i + len("Backward"):]
    return name[:i] + ("" if number == "0" else number)


# id(tensor) -> (weakref, seq): non-leaf tensors that detach_() cut from their graph, and when.
DETACHED_INPLACE = {}


def note_detached(t):
    """Tensor.detach_() on a non-leaf: a node that saved it as an input before then can no longer
    use it (PyTorch's SavedVariable finds no grad_fn and refuses)."""
    key = id(t)
    DETACHED_INPLACE[key] = (weakref.ref(t, lambda _, key=key: DETACHED_INPLACE.pop(key, None)), next(_seq))


def check_saved(node, replay=False):
    if node.released and not (replay and node.kept):
        raise RuntimeError(RETAIN_MSG)
    for t, v in zip(node.saved, node.versions):
        if t._ver[0] != v:
            _modified(node)
    if DETACHED_INPLACE:
        for t in node.saved:
            entry = DETACHED_INPLACE.get(id(t))
            if entry is not None and entry[0]() is t and node.seq < entry[1]:
                raise RuntimeError("Trying to use a saved tensor that has been detached in-place, i.e. with "
                                   ".detach_().This is not supported, please use out-of-place `.detach()` instead")


def _modified(node):
    for k, (t, v) in enumerate(zip(node.saved, node.versions)):
        if v is not None and t._ver[0] != v:   # None: kept for :explain, not needed by backward
            shape = ", ".join(str(s) for s in t._a.shape)
            where = ""
            if k in node.saved_outputs:
                where = f", which is output {t._onr} of {_strip_backward(node.name())},"
            elif t._fn is not None:
                where = f", which is output {t._onr} of {_strip_backward(t._fn.name())},"
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: [torch.{t.dtype.legacy} [{shape}]]{where} is at version {t._ver[0]}; "
                f"expected version {v} instead. Hint: enable anomaly detection to find the operation that "
                "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def run_backward(roots, grads, *, retain_graph, create_graph, inputs=None, accumulate=True,
                 allow_unused=False, trace=None, replay=False):
    """Propagate `grads` (one per root tensor) through the graph.

    accumulate=True adds into the .grad of leaves (Tensor.backward); with `inputs`
    (autograd.grad) the gradients reaching those tensors are returned instead.
    `trace(node, grads_in, grads_out)` sees each node as it runs (the tutor's :explain);
    replay=True runs a graph that backward already freed when KEEP_SAVED kept its values.
    Gradients are NumPy arrays unless create_graph, then Tensors with their own graph.
    """
    arrays, tensors = _SPACES
    xp = tensors if create_graph else arrays
    wrap = arrays.wrap
    if VMAP_RETAIN[0]:
        retain_graph = True
    root_edges = []
    for i, t in enumerate(roots):
        e = edge_of(t)
        if e is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        root_edges.append(e)

    # Which nodes are reachable, and how many edges lead into each (iterative: deep graphs are fine).
    stack = list(dict.fromkeys([n for n, _ in root_edges]))   # two outputs of one node: one root node
    deps = dict.fromkeys(stack, 0)     # a node is in deps once it is reached
    while stack:
        n = stack.pop()
        for e in n.edges:
            if e is not None:
                c = e[0]
                if c in deps:
                    deps[c] += 1
                else:
                    deps[c] = 1
                    stack.append(c)

    captured = None
    if inputs is not None:
        captured = {}
        targets = {}
        for i, t in enumerate(inputs):
            e = edge_of(t) if (t._fn is not None or t._rg) else None
            if e is not None:
                targets.setdefault(e, []).append(i)
        target_nodes = {n for n, _ in targets}
        needed = _reaching(target_nodes, [n for n, _ in root_edges])

    buffers = {}
    for (n, nr), g in zip(root_edges, grads):
        buf = buffers.get(n)
        if buf is None:
            buf = buffers[n] = [None] * n.n_out
        buf[nr] = _add(buf[nr], g if create_graph else g._a)

    ready = [(-n.seq, n) for n in buffers if deps[n] == 0]
    heapq.heapify(ready)
    prev_mode = GRAD[0]
    GRAD[0] = bool(create_graph)
    free = not retain_graph and not KEEP_SAVED[0]       # saved values dropped as each node runs
    release = not retain_graph
    keep = KEEP_SAVED[0]
    pop, push = heapq.heappop, heapq.heappush
    try:
        while ready:
            node = pop(ready)[1]
            if captured is not None and node not in needed and node not in target_nodes:
                continue   # autograd.grad runs only what leads to its inputs (as PyTorch)
            buf = buffers.pop(node, None)
            out = None
            if buf is not None:
                is_acc = type(node) is AccumulateGrad
                if (node.tensor_hooks is not None or node.retains is not None or node.pre_hooks is not None
                        or (is_acc and node.variable._hooks)):
                    buf = _run_pre_hooks(node, buf, create_graph, arrays.is_tensor, wrap)
                if captured is not None:
                    for nr, g in enumerate(buf):
                        for i in targets.get((node, nr), ()):
                            captured[i] = g
                    if node not in needed:
                        continue   # an input's own node: its gradient is taken, the node not run
                if is_acc:
                    if accumulate and buf[0] is not None:
                        accumulate_grad(node.variable, buf[0], create_graph, wrap)
                        if POST_ACCUMULATE:
                            _post_accumulate(node.variable)
                else:
                    if node.released or node.versions:
                        check_saved(node, replay)
                    spec = node.spec
                    if create_graph:
                        CPP_FORMULA[0] = spec.builtin
                    if spec.multi:
                        out = spec.backward(buf, node, xp)
                    elif buf[0] is not None:
                        out = spec.backward(buf[0], node, xp)
                    if create_graph:
                        CPP_FORMULA[0] = False
                    if ANOMALY[0] and out is not None:
                        _check_nan(node, out, arrays.raw if not create_graph else xp.raw)
                    if node.post_hooks:
                        _run_post_hooks(node, buf, out, create_graph, wrap)
                    if release:
                        if free:
                            node.saved = ()
                            node.versions = ()
                        if spec.saves:
                            node.released = True
                            node.kept = keep
                    if trace is not None:
                        trace(node, buf, out)
            if out is None:
                for e in node.edges:
                    if e is not None:
                        c = e[0]
                        left = deps[c] - 1
                        deps[c] = left
                        if not left:
                            push(ready, (-c.seq, c))
                continue
            edges = node.edges
            if len(out) < len(edges):
                raise RuntimeError(f"{node.spec.name} returned {len(out)} gradients for {len(edges)} inputs")
            for e, g in zip(edges, out):
                if e is None:
                    continue
                c, nr = e
                if g is not None:
                    cbuf = buffers.get(c)
                    if cbuf is None:
                        cbuf = buffers[c] = [None] * c.n_out
                    cbuf[nr] = g if cbuf[nr] is None else cbuf[nr] + g
                left = deps[c] - 1
                deps[c] = left
                if not left:
                    push(ready, (-c.seq, c))
    finally:
        GRAD[0] = prev_mode
        CPP_FORMULA[0] = False

    if captured is None:
        return None
    result = []
    for i, t in enumerate(inputs):
        g = captured.get(i)
        if g is None and not allow_unused:
            raise RuntimeError(
                f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                "Set allow_unused=True if this is the desired behavior.")
        if g is not None and not create_graph:
            g = wrap(np.array(g, dtype=t._a.dtype, copy=True))
        result.append(g)
    return result


def _reaching(target_nodes, start):
    """The nodes with an edge leading to a target node: the ones autograd.grad must run
    (iterative post-order walk; a target itself runs only if it also leads to another)."""
    reach = {}
    for root in start:
        if root in reach:
            continue
        stack = [(root, False)]
        while stack:
            n, done = stack.pop()
            if done:
                reach[n] = n in target_nodes or any(e is not None and reach.get(e[0], False) for e in n.edges)
                continue
            if n in reach:
                continue
            reach[n] = False            # placeholder while its children are visited
            stack.append((n, True))
            for e in n.edges:
                if e is not None and e[0] not in reach:
                    stack.append((e[0], False))
    return {n for n in reach if any(e is not None and reach.get(e[0], False) for e in n.edges)}


def _run_pre_hooks(node, buf, create_graph, is_tensor, wrap):
    hooks = node.tensor_hooks
    retains = node.retains
    if type(node) is AccumulateGrad:
        leaf_hooks = node.variable._hooks
        if leaf_hooks:
            hooks = {0: leaf_hooks}
    if hooks is None and retains is None and node.pre_hooks is None:
        return buf
    buf = list(buf)
    if hooks:
        for nr, hs in hooks.items():
            for h in list(hs):
                g = buf[nr]
                if g is None:
                    continue
                gt = g if create_graph else wrap(g)
                r = h(gt)
                if r is not None:
                    _check_hook_result(h, gt, r, is_tensor)
                    buf[nr] = r if create_graph else r._a
    if retains:
        for nr, ref in retains.items():
            t = ref()
            if t is not None and buf[nr] is not None:
                g = buf[nr]
                gt = g if create_graph else wrap(np.array(g, copy=True))
                t._grad = gt if t._grad is None else wrap(t._grad._a + gt._a)
    if node.pre_hooks:
        for h in list(node.pre_hooks):
            r = h(tuple(None if g is None else (g if create_graph else wrap(g)) for g in buf))
            if r is not None:
                buf = [None if g is None else (g if create_graph else g._a) for g in r]
    return buf


def _check_hook_result(hook, grad, result, is_tensor):
    """PyTorch's check_single_result: a tensor hook may return None or a tensor of the
    gradient's dtype and shape."""
    if not is_tensor(result):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    name = getattr(hook, "name", None) or getattr(hook, "__name__", None) or type(hook).__name__
    name = name.rsplit(".", 1)[-1]
    if result.dtype is not grad.dtype:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was torch.{grad.dtype.legacy} "
                           f"got torch.{result.dtype.legacy})")
    if result.shape != grad.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")


ANOMALY = [False]                            # torch.autograd.detect_anomaly / set_detect_anomaly
POST_ACCUMULATE = {}   # id(leaf) -> (weakref to it, hooks run after its .grad is accumulated)


def post_accumulate_hooks(t):
    """The hook list of leaf t (made on first use; dropped with t)."""
    key = id(t)
    entry = POST_ACCUMULATE.get(key)
    if entry is None or entry[0]() is not t:
        entry = POST_ACCUMULATE[key] = (weakref.ref(t, lambda _r, k=key: POST_ACCUMULATE.pop(k, None)), [])
    return entry[1]


def _post_accumulate(t):
    entry = POST_ACCUMULATE.get(id(t))
    if entry is not None and entry[0]() is t:
        for h in list(entry[1]):
            h(t)


def _check_nan(node, out, raw):
    for k, g in enumerate(out):
        if g is not None:
            a = raw(g)
            if a.dtype.kind in "fV" and np.isnan(a).any():
                raise RuntimeError(f"Function '{node.spec.name}' returned nan values in its {k}th output.")


def _run_post_hooks(node, buf, grads, create_graph, wrap):
    w = (lambda a: a) if create_graph else (lambda a: None if a is None else wrap(a))
    for h in list(node.post_hooks):
        h(tuple(w(g) for g in grads or ()), tuple(w(g) for g in buf))


def accumulate_grad(t, g, create_graph, wrap):
    if create_graph:
        gt = g
        if gt.dtype is not t.dtype:
            if gt.dtype.is_complex and not t.dtype.is_complex:
                gt = gt.real
            gt = gt.to(t.dtype)
        if t._grad is None:
            t._grad = wrap(np.empty_like(t._a)).copy_(gt)
        else:
            t._grad = t._grad + gt
        return
    a = t._a
    if a.size > (1 << 22) and not any(a.strides) and not any(g.strides):
        # a meta leaf without data (devices.blank), a gradient without data: one value seen
        # at every index (the meta tensor's `wrap` marks it meta)
        t._grad = wrap(np.lib.stride_tricks.as_strided(np.array(g.flat[0], a.dtype), a.shape, (0,) * a.ndim))
        return
    if g.dtype != t._a.dtype:
        if g.dtype.kind == "c" and t._a.dtype.kind != "c":   # a real input's gradient: the real part
            g = g.real
        g = g.astype(t._a.dtype)
    if g.shape != t._a.shape:
        g = np.broadcast_to(g, t._a.shape)
    cur = t._grad
    if cur is None:
        # AccumulateGrad's layout contract: a dense leaf's .grad takes the leaf's strides (a
        # transposed leaf a transposed gradient) whatever layout the backward produced, any
        # other leaf's a contiguous one
        a = t._a
        out = np.empty_like(a, dtype=g.dtype)
        if out.strides != a.strides:
            out = np.empty(a.shape, g.dtype)
        out[...] = g
        t._grad = wrap(out)
    elif cur._fn is None and not cur._rg:
        # in place, as PyTorch does outside grad mode: `g = x.grad` keeps seeing the sum
        cur._a += g
        cur._ver[0] += 1
    else:
        t._grad = wrap(cur._a + g)
