"""The in-place variants (`x.add_(y)`, `x.exp_()`): the out-of-place kernel on a snapshot,
written back, with PyTorch's leaf, view, shape and dtype checks and its CopySlices
history when the written tensor is a view."""
from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD, Node, edge_of
from gradrepl.engine.ops.common import check_leaf_inplace
from gradrepl.engine.ops.registry import rule
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import broadcast_shape, cname, legacy_scalar, shape_list, warn


@rule("CopySlices", ("self", "src"), ("grad with [index] zeroed", "grad[index]"), ctx=("index", "src_shape", "has_base"),
      saves=True)  # freed by backward, as in PyTorch
def CopySlices(grad, xp, index, src_shape, has_base):
    perm = getattr(index, "torch_perm", None)      # x[0, :, [1, 0]] = v: v laid out as PyTorch's x[...]
    if perm is not None:
        index = index.numpy_index
    gb = xp.zero_at(grad, index) if has_base else None
    gs = xp.index(grad, index)
    if perm is not None:
        gs = xp.permute(gs, perm)
    if src_shape is not None:
        gs = xp.sum_to(gs, src_shape)
    return (gb, gs)


@rule("AsStridedBackward0", ("self",), ("grad placed at the view's elements in zeros(base.sizes())",),
      ctx=("shape", "index"))
def AsStridedBackward0(grad, xp, shape, index):
    return (xp.scatter(shape, index, grad),)


def inplace(t, other, op, floating=False, check=None, **kw):
    """t.op_(other): op(t, other, **kw) written into t. `floating`: the op's result is
    floating even for integer inputs (div); `check(t, other)` raises PyTorch's op-specific
    refusals first."""
    check_leaf_inplace(t)
    if type(other) is Tensor:  # PyTorch checks the output shape before the output dtype
        broadcast_shape(t._a.shape, other._a.shape, out=t._a.shape)
    if check is not None:
        check(t, other)
    if t._a.dtype.kind not in "fV":
        rd = D.result_type((t, other)) if other is not None else t.dtype
        if floating:
            rd = D.DEFAULT_FLOAT[0] if not rd.is_floating_point else rd
        if rd is not t.dtype and D.promote_types(rd, t.dtype) is not t.dtype:
            raise RuntimeError(f"result type {legacy_scalar(rd)} can't be cast to the desired output type "
                               f"{legacy_scalar(t.dtype)}")
    needs = GRAD[0] and (t.requires_grad or (type(other) is Tensor and other.requires_grad))
    if needs:
        # the op's node must see the old value: compute on a snapshot carrying t's history
        snap = _new(t._a.copy())
        snap._fn, snap._onr, snap._rg = t._fn, t._onr, t._rg
        r = op(snap, other, **kw)
    else:
        r = op(t.detach() if t._fn is not None else _new(t._a), other, **kw)
    if t._a.dtype.kind not in "fV" and r.dtype is not t.dtype and D.promote_types(r.dtype, t.dtype) is not t.dtype:
        raise RuntimeError(f"result type {legacy_scalar(r.dtype)} can't be cast to the desired output type "
                           f"{cname(t.dtype)}")   # what only the op knows: x.clamp_(0.5) of a LongTensor
    if r._a.dtype.kind == "c" and t._a.dtype.kind != "c":    # a complex result into a real tensor
        raise RuntimeError(f"result type {legacy_scalar(r.dtype)} can't be cast to the desired output type "
                           f"{legacy_scalar(t.dtype)}")
    if r._a.shape != t._a.shape:
        raise RuntimeError(f"output with shape {shape_list(t._a.shape)} doesn't match the broadcast shape "
                           f"{shape_list(r._a.shape)}")
    t._a[...] = r._a
    t._ver[0] += 1
    if needs:
        t._fn, t._onr = r._fn, r._onr
        rebase_view(t, r)
    return t


def binary_inplace(forward, floating=False, check=None, ufunc=None):
    """The in-place method of a binary op: `x.add_(y, alpha=2)`. `ufunc`: the NumPy ufunc
    the forward applies to two operands of one float dtype, for the fast path."""
    if ufunc is None:
        def method(self, other, **kw):
            return inplace(self, other, forward, floating, check, **kw)
        return method

    def fast_method(self, other, **kw):
        # `p.data -= lr * p.grad`: float operands of one dtype, self's shape, no history to
        # record: the ufunc writes into self (the same values as computing then copying)
        a = self._a
        if (not kw and type(other) is Tensor and other._a.dtype is a.dtype and other._a.shape == a.shape
                and a.dtype.kind in "fV" and a.flags.writeable
                and not (GRAD[0] and (self._fn is not None or self._rg or self._base is not None
                                      or other._fn is not None or other._rg))):
            ufunc(a, other._a, out=a)
            self._ver[0] += 1
            return self
        return inplace(self, other, forward, floating, check, **kw)
    return fast_method


def scalar_first(fn, name, tensors, keyword, signature, lead=0):
    """PyTorch's deprecated overloads that take the scalar first, as old tutorials call them:
    `p.data.add_(-lr, p.grad)` is `add_(p.grad, alpha=-lr)`, `addcmul_(v, t1, t2)` is
    `addcmul_(t1, t2, value=v)` (with PyTorch's deprecation warning). `tensors`: the tensor
    arguments after self; `lead`: 1 for a torch.* function (its input counts as positional)."""
    def call(*args, **kw):
        rest = args[1:]     # after self (a method) or input (a torch.* function)
        if "other" in kw and not lead:      # x.add(other=y): the forward names it positionally
            rest, kw = rest + (kw.pop("other"),), kw
            args = args[:1] + rest
        if len(rest) == tensors + 1 and type(rest[0]) in (int, float, bool):
            if kw:
                raise TypeError(f"{name}() received an invalid combination of arguments - got unrecognized keyword "
                                f"arguments: {', '.join(reversed(list(kw)))}")
            tensors_part, scalar = signature.replace(" = 1", "").split(", *, ")
            first = "Tensor input, " if lead else ""
            warn("UserWarning", f"This overload of {name} is deprecated:\n\t{name}({first}{scalar}, {tensors_part})\n"
                 f"Consider using one of the following signatures instead:\n\t{name}({first}{signature})")
            return fn(args[0], *rest[1:], **{keyword: rest[0]})
        if len(rest) > tensors:
            given = tensors + lead
            raise TypeError(f"{name}() takes {given} positional argument{'' if given == 1 else 's'} but "
                            f"{len(rest) + lead} were given")
        return fn(*args, **kw)
    call.__name__ = call.__qualname__ = name
    call.__wrapped__ = fn
    return call


def unary_inplace(forward, floating=False):
    """The in-place method of an op without a tensor operand: `x.exp_()`, `x.clamp_(0, 1)`.
    floating: the op's result is floating even for integer input (sin_ of a LongTensor fails)."""
    def method(self, *args, **kw):
        return inplace(self, None, lambda s, _other: forward(s, *args, **kw), floating)
    return method


def rebase_view(view, r):
    """An in-place op on a view changes its base: the base's history gains a CopySlices that
    writes the view's new value, and the view becomes a slice of that (AsStridedBackward0),
    as in PyTorch. Only views made by basic indexing of a tensor that is not itself a view."""
    base = view._base
    if base is None or view._vidx is None or base._base is not None:
        return
    node = Node(CopySlices, (edge_of(base) if base.requires_grad else None, edge_of(r)), (),
                (view._vidx, r._a.shape, base.requires_grad))
    base._fn, base._onr = node, 0
    view._fn = Node(AsStridedBackward0, (edge_of(base),), (), (base._a.shape, view._vidx))
    view._onr = 0

