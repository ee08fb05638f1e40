"""The op table: one declaration per op, one rule per backward node.

An op is declared where its kind of op lives (ops/elementwise.py, reduce.py, ...):

    @declare("exp", rules=[EXP], bare=True, inplace=True)
    def exp(self):
        return unary(self, _f64(np.exp), EXP)

`declare` records the forward kernel and its variants: the Tensor method (and aliases),
the `torch.` function, the in-place method (`exp_`), Python operators (`__add__`), the
bare name of expression files. Everything user code can reach is derived from this
table: Tensor's methods (ops/__init__.py installs them), `torch.*` (api.TORCH), the
facade's allow-lists (api.TENSOR_ATTRS, api.BARE_OPS) and completion.

A backward node is a `Rule`, declared next to the op that records it:

    EXP = rule("ExpBackward0", saved=("result",), formulas=("grad * result",))(
        lambda grad, xp, result: (grad * result,))

The rule function's parameters after (grad, xp) are the saved values and the context
values by name, in the order the declaration gives them; registration checks that the
names agree, so a forward and its rule cannot drift apart. A parameter called `node`
(right after xp) receives the node itself (for rules that look at which inputs need a
gradient). A rule returns one gradient per input edge (None where none flows).
"""
from gradrepl.engine.autograd import DEFER_PACK, SAVED_HOOKS, Node, SavedOutput, edge_of, pack_saved

SPECS = {}      # rule key -> Rule (the derivative table; PyTorch's node names)
REGISTRY = {}   # op name -> Op

RESULT = object()  # in a forward's saved tuple: the op's own output


class Absent:
    """A saved value declared optional (`rule(optional=...)`) that the forward passed as None
    (batch_norm without weight): unpacks to None, never changes version."""

    __slots__ = ()
    _a = None
    _ver = (0,)
    _fn = None
    _onr = 0


ABSENT = Absent()


class Rule:
    """One backward node kind: PyTorch's node name, the derivative per input as text (the
    tutor's :explain shows it), the named saved values and context, and the code."""

    __slots__ = ("name", "inputs", "formulas", "saved_names", "ctx_names", "backward", "fn", "saves", "multi",
                 "key", "optional", "needed_by")
    builtin = True   # a formula of PyTorch's C++ code (autograd.CPP_FORMULA), unlike a custom Function's

    def __init__(self, name, inputs, formulas, saved, ctx, fn, saves, multi, key, optional=(), needed_by=None):
        self.name = name
        self.inputs = inputs
        self.formulas = formulas
        self.saved_names = saved
        self.ctx_names = ctx
        self.saves = saves      # holds saved values: a second backward needs retain_graph
        self.multi = multi      # several outputs: the rule gets the list of output grads
        self.key = key
        self.fn = fn
        self.optional = optional   # saved values the forward may pass as None
        self.needed_by = needed_by  # per saved value: the inputs whose gradient formula reads it
        self.backward = _caller(fn, len(saved), len(ctx), _takes_node(fn))

    def __repr__(self):
        return f"<Rule {self.key}>"

    def node(self, out, inputs, saved=(), ctx=None):
        """Record this rule as out's grad_fn (inputs: tensors or None)."""
        edges = tuple([None if x is None else edge_of(x) for x in inputs])
        if self.optional:
            saved = tuple([ABSENT if s is None else s for s in saved])
        # by identity: `RESULT in saved` would compare RESULT with each saved Tensor (==)
        outs = tuple([k for k, s in enumerate(saved) if s is RESULT]) if saved else ()
        if SAVED_HOOKS:
            DEFER_PACK[0] = True
        if not outs:
            node = out._fn = Node(self, edges, saved if type(saved) is tuple else tuple(saved), ctx)
            if self.needed_by is not None:
                node.versions = unchecked(node.versions, self.needed_by, edges)
        else:
            node = out._fn = Node(self, edges, tuple([out if s is RESULT else s for s in saved]), ctx)
            node.saved = tuple([SavedOutput(out, node) if s is RESULT else s for s in saved])
            node.saved_outputs = outs
        if SAVED_HOOKS:
            DEFER_PACK[0] = False
            if saved:
                pack_saved(node, out, self.needed_by)
        return node


def unchecked(versions, needed_by, edges):
    """PyTorch saves a value only for the gradients that run: one no input needing a
    gradient reads is not saved, so changing it in place fails nothing (version None;
    the node keeps it for the tutor's :explain)."""
    return tuple([v if any(edges[i] is not None for i in users) else None for v, users in zip(versions, needed_by)])


def _params(fn):
    code = fn.__code__
    return list(code.co_varnames[:code.co_argcount])


def _takes_node(fn):
    params = _params(fn)
    return len(params) > 2 and params[2] == "node"


def _caller(fn, n_saved, n_ctx, takes_node):
    """backward(grad, node, xp) for the engine: unpacks the node's saved values (through
    xp.val) and its context into the rule's named parameters. One closure per shape of
    the call, so that the hot path does no loop of its own."""
    if takes_node:
        def call(g, node, xp):
            saved = [xp.val(s) for s in node.saved]
            ctx = () if n_ctx == 0 else ((node.ctx,) if n_ctx == 1 else node.ctx)
            return fn(g, xp, node, *saved, *ctx)
        return call
    if n_saved > 2:
        def call(g, node, xp):
            ctx = () if n_ctx == 0 else ((node.ctx,) if n_ctx == 1 else node.ctx)
            return fn(g, xp, *[xp.val(s) for s in node.saved], *ctx)
        return call
    # only the closure this rule needs (a table of all nine, built per rule, cost start-up)
    n_ctx = min(n_ctx, 2)
    if n_saved == 0:
        if n_ctx == 0:
            return lambda g, node, xp: fn(g, xp)
        if n_ctx == 1:
            return lambda g, node, xp: fn(g, xp, node.ctx)
        return lambda g, node, xp: fn(g, xp, *node.ctx)
    if n_saved == 1:
        if n_ctx == 0:
            return lambda g, node, xp: fn(g, xp, xp.val(node.saved[0]))
        if n_ctx == 1:
            return lambda g, node, xp: fn(g, xp, xp.val(node.saved[0]), node.ctx)
        return lambda g, node, xp: fn(g, xp, xp.val(node.saved[0]), *node.ctx)
    if n_ctx == 0:
        return lambda g, node, xp: fn(g, xp, xp.val(node.saved[0]), xp.val(node.saved[1]))
    if n_ctx == 1:
        return lambda g, node, xp: fn(g, xp, xp.val(node.saved[0]), xp.val(node.saved[1]), node.ctx)
    return lambda g, node, xp: fn(g, xp, xp.val(node.saved[0]), xp.val(node.saved[1]), *node.ctx)


def rule(name, inputs=("self",), formulas=None, *, saved=(), ctx=(), saves=None, multi=False, key=None,
         optional=(), needed_by=None):
    """Declare a backward node. `saved`: names of the tensors the forward keeps (checked
    for in-place changes; `result` is the op's own output); `ctx`: names of the small
    non-tensor values (shapes, dims). Both become the rule function's parameters.
    `optional`: saved names the forward may pass as None (the rule then gets None).
    `needed_by`: per saved name, the indices of the inputs whose gradient reads it (as
    PyTorch's generated code saves: mm's self only when mat2 needs a gradient); without it
    every saved value is checked."""
    if formulas is None:
        raise TypeError(f"rule {name}: formulas are required (one per input)")
    if len(formulas) != len(inputs):
        raise TypeError(f"rule {name}: {len(inputs)} inputs but {len(formulas)} formulas")

    def register(fn):
        params = _params(fn)
        names = [p for p in params[2:] if p != "node"]
        want = [*saved, *ctx]
        if params[:2] != ["grad", "xp"] and params[:2] != ["grads", "xp"] or names != want:
            raise TypeError(f"rule {name}: the function's parameters {params} must be (grad, xp, [node,] "
                            f"{', '.join(want)})")
        spec = Rule(name, tuple(inputs), tuple(formulas), tuple(saved), tuple(ctx), fn,
                    bool(saved) if saves is None else saves, multi, key or name, tuple(optional), needed_by)
        if spec.key in SPECS:
            raise ValueError(f"rule {spec.key} declared twice")
        SPECS[spec.key] = spec
        return spec
    return register


class Op:
    """One user-visible op and its variants."""

    __slots__ = ("name", "forward", "kind", "methods", "functions", "inplace", "dunders", "bare", "rules",
                 "returns_tensor", "torch_forward", "attribute", "functional")

    def __repr__(self):
        return f"<Op {self.name}>"


def declare(name, forward=None, *, method=True, function=True, aliases=(), inplace=None, dunders=None, bare=False,
            rules=(), returns_tensor=True, torch_forward=None, attribute=False, functional=None, kind=None):
    """Declare an op. method/function: True for `name`, a string for another name, False for
    none; aliases: further names of both; inplace: the in-place method (`name_`; see
    ops/inplace.py); dunders: {"__add__": function} for Python's operators; torch_forward: the torch.* function when it differs from the method (its
    first argument converted to a tensor otherwise); rules: the backward nodes it records
    attribute: the method is read as an attribute (`x.T`); functional: True when
    torch.nn.functional has the op (the forward itself), or its function there (the sweep test, tests/engine/test_op_sweep.py, checks them against PyTorch and needs
    samples, or a stated reason, for every declared op)."""
    def register(fn):
        if name in REGISTRY:
            raise ValueError(f"op {name} declared twice")
        op = Op()
        op.name = name
        op.forward = fn
        op.kind = kind or fn.__module__.rsplit(".", 1)[-1]
        extra = tuple(aliases)
        op.methods = ((name if method is True else method,) + extra) if method else ()
        op.functions = ((name if function is True else function,) + extra) if function else ()
        op.inplace = inplace
        op.dunders = dict(dunders or {})
        op.bare = bare
        op.rules = tuple(rules)
        op.returns_tensor = returns_tensor
        op.torch_forward = torch_forward
        op.attribute = attribute
        op.functional = fn if functional is True else functional
        REGISTRY[name] = op
        return fn
    if forward is not None:
        return register(forward)
    return register
