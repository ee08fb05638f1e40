"""Elementwise ops: arithmetic and its operators, math functions, comparisons, clamp, where.

Each op is declared once (gradrepl/engine/ops/registry.py); its backward rules sit just
above it, with the saved values and context named as the rule's parameters.
"""
import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine import kernels
from gradrepl.engine.mkl import vml_kernel
from gradrepl.engine.rounding import fma32, fma64
from gradrepl.engine.autograd import CPP_FORMULA, DEFER_PACK, GRAD, SAVED_HOOKS, Node, SavedOutput, edge_of, pack_saved
from gradrepl.engine.ops.common import (RESULT, Unsupported, as_tensor, binary_result, grad_shapes, needs, operands, result,
                                        scalar_tensor, shapes)
from gradrepl.engine.ops.inplace import binary_inplace, inplace, scalar_first, unary_inplace
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import broadcast_shape, cname, legacy_scalar, pytype, wrap_dim


def _dunder(fn):
    """A Python operator: an operand PyTorch rejects gives NotImplemented (Python words the error)."""
    def op(self, other):
        try:
            return fn(self, other)
        except Unsupported:
            return NotImplemented
    op.__name__ = fn.__name__
    return op


# ================================================================ add, sub
@rule("AddBackward0", ("self", "other"), ("grad", "maybe_multiply(grad, alpha)"),
      ctx=("self_shape", "other_shape", "alpha"))
def AddBackward0(grad, xp, self_shape, other_shape, alpha):
    gb = grad if alpha == 1 else grad * alpha
    return (None if self_shape is None else xp.sum_to(grad, self_shape),
            None if other_shape is None else xp.sum_to(gb, other_shape))


@rule("AddBackward1", ("self",), ("grad",), ctx=("self_shape",))
def AddBackward1(grad, xp, self_shape):
    return (xp.sum_to(grad, self_shape),)


def _alpha_fma(xa, xb, alpha):
    """a + alpha * b: ufunc's add kernel, one fused multiply-add for float32 (vec::fmadd)."""
    if xa.dtype == np.float32 and getattr(xb, "dtype", None) == np.float32:
        return fma32(xb, np.float32(alpha), xa)
    return xa + xb * alpha


def _alpha_check(xa, xb, alpha):
    """ATen's alpha_check on the result dtype (a bool alpha, or a float one for integers)."""
    if type(alpha) in (bool, float):
        kind = np.result_type(xa, xb).kind
        if type(alpha) is bool and kind != "b":
            raise RuntimeError("Boolean alpha only supported for Boolean results.")
        if type(alpha) is float and kind in "biu":
            raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


def add(a, b, alpha=1):
    if type(a) is not Tensor:
        a = as_tensor(a)
    xa, xb = operands(a, b)
    _alpha_check(xa, xb, alpha)
    if alpha != 1:
        out = _alpha_fma(xa, xb, alpha)
    else:
        out = xa + xb
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if out.dtype is not xa.dtype:   # bfloat16 with a Python number: computed in float32, rounded
        out = out.astype(xa.dtype)
    if GRAD[0]:
        s = grad_shapes(a, b)
        if s is not None:
            if CPP_FORMULA[0] and type(b) is not Tensor:   # add(Tensor, Scalar) in a C++ formula
                return result(out, AddBackward1, (a,), (), s[0])
            t = _new(out)
            t._fn = Node(AddBackward0, (edge_of(a), edge_of(b) if type(b) is Tensor else None), (), (*s, alpha))
            return t
    return _new(out)


def _torch_add(input, other, alpha=1, out=None):
    return add(input, other, alpha=alpha)


_ALPHA = "Tensor other, *, Number alpha = 1"
declare("add", scalar_first(add, "add", 1, "alpha", _ALPHA), rules=[AddBackward0, AddBackward1], torch_forward=scalar_first(_torch_add, "add", 1, "alpha", _ALPHA, 1),
        inplace=scalar_first(binary_inplace(add, ufunc=np.add), "add_", 1, "alpha", _ALPHA),
        dunders={"__add__": _dunder(add), "__radd__": _dunder(add), "__iadd__": lambda self, other: self.add_(other)})


@rule("SubBackward0", ("self", "other"), ("grad", "-grad * alpha"), ctx=("self_shape", "other_shape", "alpha"))
def SubBackward0(grad, xp, self_shape, other_shape, alpha):
    return (None if self_shape is None else xp.sum_to(grad, self_shape),
            None if other_shape is None else xp.sum_to(-grad * alpha if alpha != 1 else -grad, other_shape))


@rule("SubBackward1", ("self",), ("grad",), ctx=("self_shape",))
def SubBackward1(grad, xp, self_shape):
    return (xp.sum_to(grad, self_shape),)


@rule("RsubBackward1", ("self",), ("-grad * alpha",))
def RsubBackward1(grad, xp):
    return (-grad,)


def _check_bool_sub(a, b):
    if a.dtype is D.bool_ and type(b) is Tensor and b.dtype is D.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if a.dtype is D.bool_ or (type(b) is Tensor and b.dtype is D.bool_) or type(b) is bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")


def sub(a, b, alpha=1):
    if type(a) is not Tensor:
        a = as_tensor(a)
    _check_bool_sub(a, b)
    xa, xb = operands(a, b)
    _alpha_check(xa, xb, alpha)
    if alpha != 1:
        out = _alpha_fma(xa, xb, -alpha)
    else:
        out = xa - xb
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if out.dtype is not xa.dtype:   # bfloat16 with a Python number: computed in float32, rounded
        out = out.astype(xa.dtype)
    if GRAD[0]:
        s = grad_shapes(a, b)
        if s is not None:
            if CPP_FORMULA[0] and type(b) is not Tensor:   # sub(Tensor, Scalar) in a C++ formula
                return result(out, SubBackward1, (a,), (), s[0])
            t = _new(out)
            t._fn = Node(SubBackward0, (edge_of(a), edge_of(b) if type(b) is Tensor else None), (), (*s, alpha))
            return t
    return _new(out)


def rsub(a, b):
    """b - a for a Python number b."""
    if a.dtype is D.bool_ or type(b) is bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    xa, xb = operands(a, b)
    out = np.asarray(xb - xa)
    if out.dtype != xa.dtype and xa.dtype.kind in "fV":
        out = out.astype(xa.dtype)
    if GRAD[0] and a.requires_grad:
        t = _new(out)
        if CPP_FORMULA[0]:   # C++'s `Scalar - Tensor`: a filled tensor, then sub_ (SubBackward0)
            t._fn = Node(SubBackward0, (None, edge_of(a)), (), (None, a._a.shape, 1))
        else:
            t._fn = Node(RsubBackward1, (edge_of(a),), (), None)
        return t
    return _new(out)


def _torch_sub(input, other, alpha=1, out=None):
    return sub(input, other, alpha=alpha)


declare("sub", scalar_first(sub, "sub", 1, "alpha", _ALPHA), aliases=("subtract",), rules=[SubBackward0, SubBackward1, RsubBackward1],
        torch_forward=scalar_first(_torch_sub, "sub", 1, "alpha", _ALPHA, 1),
        inplace=scalar_first(binary_inplace(sub, check=_check_bool_sub, ufunc=np.subtract), "sub_", 1, "alpha", _ALPHA),
        dunders={"__sub__": _dunder(sub), "__rsub__": _dunder(rsub), "__isub__": lambda self, other: self.sub_(other)})


# ================================================================ mul, div
@rule("MulBackward0", ("self", "other"), ("grad * other", "grad * self"), saved=("self", "other"),
      ctx=("self_shape", "other_shape"))
def MulBackward0(grad, xp, self, other, self_shape, other_shape):
    return (None if self_shape is None else xp.sum_to(grad * _promoted(xp, other, grad), self_shape),
            None if other_shape is None else xp.sum_to(grad * _promoted(xp, self, grad), other_shape))


def _promoted(xp, t, grad):
    """An integer or bool operand of a float gradient's product or quotient in PyTorch's type
    promotion (float32 with int64 gives float32), not NumPy's (float64: the kernels after it,
    a batch norm's backward, would then run in float64)."""
    if not xp.tensors and t.dtype.kind in "biu" and grad.dtype.kind == "f":
        return t.astype(grad.dtype)
    return t


@rule("MulBackward0", ("self", "other"), ("grad * other", "grad * self"), saved=("self",), ctx=("self_shape", "other"),
      key="MulBackward0 by a number")
def MulBackward0_number(grad, xp, self, self_shape, other):
    # tensor * Python number: the number is context, not a saved tensor
    return (xp.sum_to(grad * _wrapped(xp, other, grad), self_shape), None)


def _wrapped(xp, number, like):
    """Python's `x * 2` wraps 2 into a 0-d tensor: its rule multiplies Tensor by Tensor (MulBackward0
    under create_graph, not a C++ formula's MulBackward1)."""
    return xp.constant(np.asarray(number, xp.raw(like).dtype)) if xp.tensors else number


@rule("MulBackward1", ("self",), ("grad * other",), ctx=("self_shape", "other"))
def MulBackward1(grad, xp, self_shape, other):
    return (xp.sum_to(grad * other, self_shape),)


def mul(a, b):
    if type(a) is not Tensor:
        a = as_tensor(a)
    xa, xb = operands(a, b)
    out = xa * xb
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if out.dtype is not xa.dtype:   # bfloat16 with a Python number: computed in float32, rounded
        out = out.astype(xa.dtype)
    if CPP_FORMULA[0] and type(b) is not Tensor:   # mul(Tensor, Scalar) in a C++ formula
        return result(out, MulBackward1, (a,), (), (a._a.shape, b))
    return binary_result(out, a, b, MulBackward0, MulBackward0_number)


def _torch_mul(input, other, out=None):
    return mul(input, other)


declare("mul", mul, aliases=("multiply",), rules=[MulBackward0, MulBackward0_number, MulBackward1], torch_forward=_torch_mul,
        inplace=binary_inplace(mul, ufunc=np.multiply),
        dunders={"__mul__": _dunder(mul), "__rmul__": _dunder(mul), "__imul__": lambda self, other: self.mul_(other)})


@rule("DivBackward0", ("self", "other"), ("grad / other", "-grad * self / (other * other)"), saved=("self", "other"),
      ctx=("self_shape", "other_shape"))
def DivBackward0(grad, xp, self, other, self_shape, other_shape):
    return (None if self_shape is None else xp.sum_to(grad / _promoted(xp, other, grad), self_shape),
            None if other_shape is None else
            xp.sum_to(-grad * (_promoted(xp, self, grad) / other / other), other_shape))   # PyTorch's order


@rule("DivBackward0", ("self", "other"), ("grad / other", "-grad * self / (other * other)"), saved=("self",),
      ctx=("self_shape", "other"), key="DivBackward0 by a number")
def DivBackward0_number(grad, xp, self, self_shape, other):
    return (xp.sum_to(grad / _wrapped(xp, other, grad), self_shape), None)


@rule("DivBackward2", ("self", "other"), ("zeros_like(grad)", "zeros_like(grad)"), ctx=("self_shape", "other_shape"))
def DivBackward2(grad, xp, self_shape, other_shape):
    return (None if self_shape is None else xp.zeros_like(xp.sum_to(grad, self_shape)),
            None if other_shape is None else xp.zeros_like(xp.sum_to(grad, other_shape)))


def div(a, b, rounding_mode=None):
    if type(a) is not Tensor:
        a = as_tensor(a)
    if rounding_mode is not None:   # floor or trunc: a step function, its gradient is 0
        if rounding_mode not in ("floor", "trunc"):
            raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                               f"'{rounding_mode}'")
        xa, xb = operands(a, b)
        out = np.floor_divide(xa, xb) if rounding_mode == "floor" else np.trunc(np.true_divide(xa, xb)).astype(xa.dtype)
        out = np.asarray(out)
        if GRAD[0] and out.dtype.kind in "fV":
            return result(out, DivBackward2, (a, b if type(b) is Tensor else None), (), shapes(a, b))
        return _new(out)
    xa, xb = operands(a, b, floating=True)
    if xa.dtype.kind not in "fV":
        xa = xa.astype(D.DEFAULT_FLOAT[0].np)
    out = xa / xb
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if out.dtype != xa.dtype:
        out = out.astype(xa.dtype)
    if CPP_FORMULA[0] and type(b) is not Tensor:   # div(Tensor, Scalar) in a C++ formula
        return result(out, DivBackward1, (a,), (), b)
    return binary_result(out, a, b, DivBackward0, DivBackward0_number, other_always=True)


@rule("DivBackward1", ("self",), ("grad / other",), ctx=("other",))
def DivBackward1(grad, xp, other):
    return (grad / other,)


def div_scalar(a, number):
    """at::div(Tensor, Scalar), as PyTorch's own C++ code calls it (DivBackward1; from
    Python `x / 2` wraps the number into a tensor: DivBackward0)."""
    xa, xb = operands(a, number, floating=True)
    out = np.asarray(xa / xb).astype(xa.dtype, copy=False)
    return result(out, DivBackward1, (a,), (), number)


def _torch_div(input, other, rounding_mode=None, out=None):
    return div(input, other, rounding_mode=rounding_mode)


def _rtruediv(self, other):
    try:
        return mul(self.reciprocal(), other)
    except Unsupported:
        return NotImplemented


declare("div", div, aliases=("divide", "true_divide"), rules=[DivBackward0, DivBackward0_number, DivBackward1, DivBackward2],
        torch_forward=_torch_div,
        inplace=binary_inplace(div, floating=True),
        dunders={"__truediv__": _dunder(div), "__rtruediv__": _rtruediv,
                 "__itruediv__": lambda self, other: self.div_(other)})


# ================================================================ remainder, floor_divide
@rule("RemainderBackward0", ("self",), ("grad",))
def RemainderBackward0(grad, xp):
    return (grad,)


@rule("RemainderBackward1", ("self", "other"), ("grad", "-grad * self.div(other, rounding_mode='floor')"),
      saved=("self", "other"), ctx=("self_shape", "other_shape"))
def RemainderBackward1(grad, xp, self, other, self_shape, other_shape):
    q = xp.floor(self / other)
    return (None if self_shape is None else xp.sum_to(grad, self_shape),
            None if other_shape is None else xp.sum_to(-grad * q, other_shape))


def remainder(a, b):
    xa, xb = operands(a, b)
    if xa.dtype.kind in "biu" and not np.all(xb):
        raise RuntimeError("ZeroDivisionError")
    # PyTorch's remainder is fmod moved into the divisor's sign: -2. % 2. is -0.
    with np.errstate(all="ignore"):
        out = np.fmod(xa, xb)
        out = np.asarray(np.where((out != 0) & ((out < 0) != (xb < 0)), out + xb, out), dtype=out.dtype)
    if type(b) is Tensor:
        sa, sb = (a._a.shape if a.requires_grad else None), (b._a.shape if b.requires_grad else None)
        return result(out, RemainderBackward1, (a, b), (a, b), (sa, sb))
    return result(out, RemainderBackward0, (a,), (), None)


declare("remainder", remainder, rules=[RemainderBackward0, RemainderBackward1], inplace=binary_inplace(remainder),
        dunders={"__mod__": _dunder(remainder)})


@rule("NotImplemented", ("self", "other"), ("not implemented", "not implemented"), ctx=("op",))
def NotImplemented_(grad, xp, op):
    raise RuntimeError(f"derivative for {op} is not implemented")


def floor_divide(a, b):
    xa, xb = operands(a, b)
    if xa.dtype.kind in "biu" and not np.all(xb):
        raise RuntimeError("ZeroDivisionError")
    with np.errstate(all="ignore"):
        out = np.asarray(np.floor_divide(xa, xb))
    # PyTorch defines no derivative: the result still requires grad, backward through it fails
    return result(out, NotImplemented_, (a, b if type(b) is Tensor else None), (), "aten::floor_divide")


declare("floor_divide", floor_divide, rules=[NotImplemented_], inplace=binary_inplace(floor_divide),
        dunders={"__floordiv__": floor_divide,
                 "__rfloordiv__": lambda self, other: floor_divide(scalar_tensor(other, self), self)})


# ================================================================ pow
@rule("PowBackward0", ("self",), ("grad * exponent * self.pow(exponent - 1)",), saved=("self",), ctx=("exponent",))
def PowBackward0(grad, xp, self, exponent):
    if exponent == 0:
        return (grad * 0,)
    # self.pow(exponent - 1) with the forward's kernel (x ** -2 is 1 / (x * x) there too),
    # so a hand-written `-x**-2 * grad` equals autograd's bit for bit (makemore part 4)
    power = _pow_scalar(self, exponent - 1) if type(self) is np.ndarray else self ** (exponent - 1)
    return (grad * (exponent * power),)


@rule("PowBackward1", ("self", "exponent"),
      ("grad * exponent * self.pow(exponent - 1)", "grad * result * self.log()  (0 where self == 0 and exponent >= 0)"),
      saved=("self", "exponent", "result"), ctx=("self_shape", "exponent_shape"))
def PowBackward1(grad, xp, self, exponent, result, self_shape, exponent_shape):
    ga = gb = None
    if self_shape is not None:  # 0 where the exponent is 0 (self ** -1 may be inf there)
        with np.errstate(divide="ignore", invalid="ignore"):
            ga = xp.sum_to(xp.where(xp.raw(exponent) == 0, grad * 0, grad * (exponent * self ** (exponent - 1))),
                           self_shape)
    if exponent_shape is not None:
        zero = (xp.raw(self) == 0) & (xp.raw(exponent) >= 0)
        gb = xp.sum_to(xp.where(zero, result * 0, grad * result * xp.log(self)), exponent_shape)
    return (ga, gb)


@rule("PowBackward2", ("exponent",), ("grad * result * log(self)",), saved=("result",), ctx=("base",))
def PowBackward2(grad, xp, result, base):
    if base == 0:
        return (grad * 0,)
    return (grad * result * float(np.log(base)),)


def _pow_scalar(xa, b):
    """x ** b as PyTorch's CPU kernel computes it: the exponents it special-cases are
    products and quotients in the dtype itself; any other float32 power is Sleef's powf, as
    PyTorch's vectorised kernel computes it (engine/kernels.py), float64 NumPy's pow."""
    with np.errstate(all="ignore"):
        if b == 2:
            return xa * xa
        if b == 1:              # pow_Tensor_Scalar_out copies the base for 1 and fills 1 for 0
            return xa.copy()
        if b == 0:
            return np.ones_like(xa)
        if xa.dtype.kind not in "fV":
            return np.power(xa, b)
        if b == 3:
            return xa * xa * xa
        if b == 0.5:            # sqrt_kernel: MKL's VML
            return sqrt_kernel(xa)
        if b == -0.5:
            return 1 / np.sqrt(xa)
        if b == -1:
            return 1 / xa
        if b == -2:
            return 1 / (xa * xa)
        if xa.dtype == np.float32:
            return kernels.pow_scalar(xa, b)
        if xa.dtype == np.float64:
            return kernels.pow_scalar64(xa, b)
        return np.power(xa, b)


def pow(a, b):
    if type(a) is not Tensor:
        return rpow(as_tensor(b), a) if type(b) is Tensor else _new(np.asarray(a ** b))
    if type(b) is Tensor:
        xa, xb = operands(a, b)
        if xa.dtype.kind in "iu" and (xb < 0).any():
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        with np.errstate(all="ignore"):
            if xa.dtype == np.float32 and xb.dtype == np.float32:
                out = kernels.pow_tensor(xa, xb)
            elif xa.dtype == np.float64 and xb.dtype == np.float64:
                out = kernels.pow64(xa, xb)
            elif xa.dtype == np.float32:   # rounded once, as PyTorch's pow kernel (not NumPy's powf)
                out = np.power(xa.astype(np.float64), xb).astype(np.float32)
            else:
                out = np.asarray(np.power(xa, xb))
        if needs(a, b):
            t = _new(out)
            PowBackward1.node(t, (a, b), (a, b, RESULT), shapes(a, b))
            return t
        return _new(out)
    if not isinstance(b, (int, float)):
        raise TypeError(f"unsupported operand type(s) for ** or pow(): 'Tensor' and '{pytype(b)}'")
    xa = a._a
    if xa.dtype.kind in "iub":
        if isinstance(b, float):
            xa = xa.astype(D.DEFAULT_FLOAT[0].np)
        elif b < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        elif xa.dtype.kind == "b":
            xa = xa.astype(np.int64)
    out = _pow_scalar(xa, b)
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if out.dtype != xa.dtype:
        out = out.astype(xa.dtype)
    if GRAD[0] and (a._fn is not None or a._rg):
        t = _new(out)
        t._fn = Node(PowBackward0, (edge_of(a),), (a,), b)
        return t
    return _new(out)


def rpow(a, base):
    """base ** a for a Python number base."""
    if not isinstance(base, (int, float)):
        raise Unsupported(f"unsupported operand type(s): '{pytype(base)}' and 'Tensor'")
    xa = a._a
    if xa.dtype.kind not in "fV" and isinstance(base, float):
        xa = xa.astype(D.DEFAULT_FLOAT[0].np)
    with np.errstate(all="ignore"):
        out = np.asarray(np.power(np.asarray(base, xa.dtype) if xa.dtype.kind in "fV" else base, xa))
    if xa.dtype.kind in "fV" and out.dtype != xa.dtype:
        out = out.astype(xa.dtype)
    if GRAD[0] and a.requires_grad:
        t = _new(out)
        if SAVED_HOOKS:
            DEFER_PACK[0] = True
        node = t._fn = Node(PowBackward2, (edge_of(a),), (t, a), base)
        node.saved = (SavedOutput(t, node), a)   # the exponent too, as PyTorch saves it (the rule reads result)
        node.saved_outputs = (0,)
        if SAVED_HOOKS:
            DEFER_PACK[0] = False
            pack_saved(node, t)
        return t
    return _new(out)


def _torch_pow(input, exponent, out=None):
    if type(input) is not Tensor:
        return rpow(as_tensor(exponent), input)
    return pow(input, exponent)


declare("pow", pow, rules=[PowBackward0, PowBackward1, PowBackward2], torch_forward=_torch_pow,
        inplace=binary_inplace(pow), dunders={"__pow__": _dunder(pow), "__rpow__": _dunder(rpow)})


# ================================================================ atan2 (the worked example of CONTRIBUTING.md)
@rule("Atan2Backward0", ("self", "other"),
      ("grad * other / (self ** 2 + other ** 2)", "grad * -self / (self ** 2 + other ** 2)"),
      saved=("self", "other"), ctx=("self_shape", "other_shape"))
def Atan2Backward0(grad, xp, self, other, self_shape, other_shape):
    denom = self * self + other * other          # PyTorch's atan2_backward: no gradient where it is 0
    recip = 1 / denom
    zero = xp.raw(denom) == 0
    if zero.any():
        recip = xp.where(zero, xp.zeros_like(recip), recip)
    return (None if self_shape is None else xp.sum_to(grad * other * recip, self_shape),
            None if other_shape is None else xp.sum_to(grad * -self * recip, other_shape))


def atan2(self, other, position=1):
    if type(other) is not Tensor:
        raise TypeError(f"atan2(): argument 'other' (position {position}) must be Tensor, not {pytype(other)}")
    xa, xb = operands(self, other, floating=True)   # PyTorch's type promotion; integers give floats
    if xa.dtype.kind not in "fV":
        xa, xb = xa.astype(D.DEFAULT_FLOAT[0].np), xb.astype(D.DEFAULT_FLOAT[0].np)
    out = kernels.atan2(xa, xb) if xa.dtype in (np.float32, np.float64) else _f64_binary(np.arctan2)(xa, xb)
    return result(out, Atan2Backward0, (self, other), (self, other), shapes(self, other))


def _torch_atan2(input, other, out=None):
    return atan2(as_tensor(input), other, position=2)


declare("atan2", atan2, aliases=("arctan2",), rules=[Atan2Backward0], torch_forward=_torch_atan2,
        inplace=binary_inplace(atan2, floating=True), bare=True)


# ================================================================ maximum, minimum, where
@rule("MaximumBackward0", ("self", "other"),
      ("grad where self > other (half on ties)", "grad where other > self (half on ties)"),
      saved=("self", "other"), ctx=("self_shape", "other_shape"))
def MaximumBackward0(grad, xp, self, other, self_shape, other_shape):
    ra, rb = xp.raw(self), xp.raw(other)
    tie = xp.mask(ra == rb, grad) * 0.5
    return (xp.sum_to(grad * (xp.mask(ra > rb, grad) + tie), self_shape) if self_shape is not None else None,
            xp.sum_to(grad * (xp.mask(rb > ra, grad) + tie), other_shape) if other_shape is not None else None)


@rule("MinimumBackward0", ("self", "other"),
      ("grad where self < other (half on ties)", "grad where other < self (half on ties)"),
      saved=("self", "other"), ctx=("self_shape", "other_shape"))
def MinimumBackward0(grad, xp, self, other, self_shape, other_shape):
    ra, rb = xp.raw(self), xp.raw(other)
    tie = xp.mask(ra == rb, grad) * 0.5
    return (xp.sum_to(grad * (xp.mask(ra < rb, grad) + tie), self_shape) if self_shape is not None else None,
            xp.sum_to(grad * (xp.mask(rb < ra, grad) + tie), other_shape) if other_shape is not None else None)


def maximum(a, b):
    xa, xb = operands(a, b)
    out = np.asarray(np.maximum(xa, xb))
    return result(out, MaximumBackward0, (a, b), (a, b), shapes(a, b))


def minimum(a, b):
    xa, xb = operands(a, b)
    out = np.asarray(np.minimum(xa, xb))
    return result(out, MinimumBackward0, (a, b), (a, b), shapes(a, b))


declare("maximum", maximum, rules=[MaximumBackward0], bare=True)
declare("minimum", minimum, rules=[MinimumBackward0], bare=True)


@rule("WhereBackward0", ("condition", "self", "other"),
      ("non-differentiable", "where(condition, grad, 0)", "where(condition, 0, grad)"),
      saved=("condition",), ctx=("self_shape", "other_shape"))
def WhereBackward0(grad, xp, condition, self_shape, other_shape):
    c = xp.raw(condition)
    z = grad * 0
    return (None,
            None if self_shape is None else xp.sum_to(xp.where(c, grad, z), self_shape),
            None if other_shape is None else xp.sum_to(xp.where(c, z, grad), other_shape))


def where(condition, input=None, other=None):
    if input is None and other is None:
        return tuple(_new(np.asarray(i, np.int64)) for i in np.nonzero(condition._a))
    if input is None or other is None:
        got = ", ".join(pytype(a) for a in (condition, input, other) if a is not None)
        raise TypeError(f"where() received an invalid combination of arguments - got ({got}), but expected one of:")
    if condition._a.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{legacy_scalar(condition.dtype)}")
    c = condition._a
    ti = as_tensor(input) if type(input) is Tensor or type(other) is not Tensor else scalar_tensor(input, other)
    to = other if type(other) is Tensor else scalar_tensor(other, ti)
    rd = D.result_type((input if type(input) is Tensor else ti, other if type(other) is Tensor else to))
    xi, xo = ti._a.astype(rd.np, copy=False), to._a.astype(rd.np, copy=False)
    broadcast_shape(broadcast_shape(c.shape, xi.shape), xo.shape)   # PyTorch's message on mismatch
    out = np.where(c, xi, xo).astype(rd.np, copy=False)
    sa = ti._a.shape if ti.requires_grad else None
    sb = to._a.shape if to.requires_grad else None
    return result(out, WhereBackward0, (None, ti, to), (_new(c),), (sa, sb))


def _where_method(self, condition, y):
    """x.where(condition, y): torch.where(condition, x, y)."""
    return where(condition, self, y)


declare("where", where, method=False, rules=[WhereBackward0], bare=True)
declare("where_method", _where_method, method="where", function=False, rules=[WhereBackward0])


# ================================================================ comparisons and logic (no gradient)
def _compare(a, b, fn):
    if type(b) is Tensor or isinstance(b, (int, float, bool)):
        xa, xb = operands(a, b)
        return _new(np.asarray(fn(xa, xb)))
    if b is None:
        return fn is np.not_equal
    try:
        bt = as_tensor(b)
    except Exception:
        return False if fn is np.equal else (True if fn is np.not_equal else NotImplemented)
    return _compare(a, bt, fn)


def _comparison(name, fn, dunder, aliases):
    def forward(self, other):
        return _compare(self, other, fn)
    forward.__name__ = name
    declare(name, forward, aliases=aliases, dunders={dunder: forward}, inplace=binary_inplace(forward))


for _name, _fn, _dunder_name, _aliases in (
        ("eq", np.equal, "__eq__", ()), ("ne", np.not_equal, "__ne__", ("not_equal",)),
        ("lt", np.less, "__lt__", ("less",)), ("le", np.less_equal, "__le__", ("less_equal",)),
        ("gt", np.greater, "__gt__", ("greater",)), ("ge", np.greater_equal, "__ge__", ("greater_equal",))):
    _comparison(_name, _fn, _dunder_name, _aliases)


@declare("equal", returns_tensor=False)
def equal(self, other):
    return self._a.shape == other._a.shape and bool((self._a == other._a).all())


def _same_dtype(self, other):
    other = as_tensor(other)
    if other.dtype is not self.dtype:
        raise RuntimeError(f"{legacy_scalar(self.dtype)} did not match {legacy_scalar(other.dtype)}")
    return other


@declare("allclose", returns_tensor=False)
def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.allclose(self._a, _same_dtype(self, other)._a, rtol=rtol, atol=atol, equal_nan=equal_nan))


@declare("isclose")
def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _new(np.isclose(self._a, _same_dtype(self, other)._a, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _nograd_binary(a, b, fn):
    xa, xb = operands(a, b)
    with np.errstate(all="ignore"):
        return _new(np.asarray(fn(xa, xb)))


def _invert(self):
    if self.dtype is D.bool_:
        return _new(~self._a)
    return _new(np.invert(self._a))


def _shift(fn):
    """<< and >> on integer arrays (PyTorch has no float kernel)."""
    def shift(xa, xb):
        if xa.dtype.kind in "fV" or np.asarray(xb).dtype.kind in "fV":
            raise RuntimeError(f'"{fn.__name__[:-len("_shift")]}shift_cpu" not implemented for \'Float\'')
        return fn(xa, np.asarray(xb).astype(xa.dtype, copy=False))
    shift.__name__ = fn.__name__
    return shift


def _reflected(fn):
    def r(self, other):
        if type(other) is Tensor:
            return fn(other, self)
        return fn(as_tensor(other), self)
    return r


for _name, _fn, _dunders in (("bitwise_and", np.bitwise_and, ("__and__", "__rand__")),
                             ("bitwise_or", np.bitwise_or, ("__or__", "__ror__")),
                             ("bitwise_xor", np.bitwise_xor, ("__xor__", "__rxor__")),
                             ("bitwise_left_shift", _shift(np.left_shift), ("__lshift__",)),
                             ("bitwise_right_shift", _shift(np.right_shift), ("__rshift__",))):
    def _bitwise(self, other, _fn=_fn):
        if type(self) is not Tensor:
            self = as_tensor(self)
        return _nograd_binary(self, other, _fn)
    _bitwise.__name__ = _name
    _ops = {d: _dunder(_bitwise) for d in _dunders}
    if _name.endswith("shift"):
        _ops["__r" + _dunders[0][2:]] = _dunder(_reflected(_bitwise))
    _ops["__i" + _dunders[0][2:]] = (lambda _n: lambda self, other: getattr(self, _n + "_")(other))(_name)
    declare(_name, _bitwise, dunders=_ops, inplace=binary_inplace(_bitwise))
declare("bitwise_not", _invert, dunders={"__invert__": _invert}, inplace=unary_inplace(_invert))

for _name, _fn in (("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite),
                   ("logical_not", np.logical_not)):
    def _test(self, _fn=_fn):
        return _new(_fn(self._a))
    _test.__name__ = _name
    declare(_name, _test, inplace=unary_inplace(_test) if _name == "logical_not" else None)


# ================================================================ unary math
def _f64(fn):
    """A float32 transcendental function evaluated in float64 and rounded once: this matches
    PyTorch's results to the last bit far more often than NumPy's float32 SIMD kernels."""
    def f(a):
        if a.dtype == np.float32:
            return fn(a.astype(np.float64)).astype(np.float32)
        return fn(a)
    f.__name__ = fn.__name__
    return f


def _f64_binary(fn):
    """_f64 for a function of two arrays of the same float dtype."""
    def f(a, b):
        if a.dtype == np.float32:
            return fn(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
        return fn(a, b)
    return f


def _f32_kernel(kernel, fn, f64=None):
    """PyTorch's own float32 kernel (engine/kernels.py: Sleef's function in the vectorised
    body, and where it has one, libm's in the scalar tail); float64 by `f64` where given
    (kernels.unary64: Sleef's double function and libm's); other dtypes as _f64(fn)."""
    other = _f64(fn)

    def f(a):
        if a.dtype == np.float32:
            return kernel(a)
        if f64 is not None and a.dtype == np.float64:
            return f64(a)
        return other(a)
    f.__name__ = fn.__name__
    return f


_exp = _f64(np.exp)          # sigmoid's float64 path (not VML in PyTorch either)
exp_kernel = vml_kernel("exp", _exp)    # torch.exp: MKL VML in PyTorch's CPU build
sqrt_kernel = vml_kernel("sqrt", np.sqrt)


def _sigmoid(a):
    if a.dtype == np.float32 or a.dtype == np.float64:
        return kernels.sigmoid(a)
    with np.errstate(over="ignore"):
        one = a.dtype.type(1)
        return (one / (one + _exp(-a))).astype(a.dtype, copy=False)


def _rounding(fn, name):
    """floor/ceil/round: integer tensors come back unchanged, in their own dtype; bool has no kernel."""
    def f(a):
        if a.dtype.kind == "b":
            raise NotImplementedError(f'"{name}_vml_cpu" not implemented for \'Bool\'')
        return fn(a) if a.dtype.kind in "fV" else a.copy()
    return f


def unary(a, fn, spec, float_only=True):
    """fn on a's array (integers computed in the default float unless float_only is False),
    recording spec with what it saves: its `self` input or its `result`."""
    xa = a._a
    if float_only and xa.dtype.kind not in "fV":
        xa = xa.astype(D.DEFAULT_FLOAT[0].np)
    out = fn(xa)
    if type(out) is not np.ndarray:
        out = np.asarray(out, dtype=xa.dtype)
    if GRAD[0] and (a._fn is not None or a._rg):
        t = _new(out)
        saved = spec.saved_names
        if not saved:
            t._fn = Node(spec, (edge_of(a),), (), None)
        elif saved[0] == "result":
            if SAVED_HOOKS:
                DEFER_PACK[0] = True
            node = t._fn = Node(spec, (edge_of(a),), (t,), None)
            node.saved = (SavedOutput(t, node),)
            node.saved_outputs = (0,)
            if SAVED_HOOKS:
                DEFER_PACK[0] = False
                pack_saved(node, t)
        else:
            t._fn = Node(spec, (edge_of(a),), (a,), None)
        return t
    return _new(out)


def _math(name, kernel, node, saved, formula, derivative, float_only=True, bare=False, inplace=True,
          function=True, aliases=(), functional=None):
    """Declare a one-input math op and its rule in one line: `derivative(grad, xp, saved)`."""
    spec = rule(node, ("self",), (formula,), saved=(saved,) if saved else ())(derivative)

    def forward(self):
        return unary(self, kernel, spec, float_only)
    forward.__name__ = name
    declare(name, forward, rules=[spec], bare=bare, function=function, aliases=aliases,
            inplace=unary_inplace(forward, float_only) if inplace else None, functional=functional)
    return spec


# ---------------------------------------------------------------- backward kernels
# PyTorch runs some backward formulas as ops of their own (aten::tanh_backward, ...). Under
# create_graph=True a rule calls the op, so the gradient's grad_fn is PyTorch's
# (TanhBackwardBackward0, with its edges) and that node's own rule gives the next derivative;
# a plain backward computes the same kernel on arrays (the same bits either way).
def _tanh_bw(grad_output, output):
    if grad_output.dtype == np.float32 and output.dtype == np.float32:
        return kernels.tanh_backward(grad_output, output)     # 1 - y*y fused, as PyTorch's kernel
    if grad_output.dtype == np.float64 and output.dtype == np.float64:
        return grad_output * fma64(-output, output, 1.0)      # the same fused kernel in double
    return grad_output * (1 - output * output)


def _sigmoid_bw(grad_output, output):
    return grad_output * (1 - output) * output


@rule("TanhBackwardBackward0", ("grad_output", "output"),
      ("tanh_backward(grad, output)", "grad * -2 * output * grad_output"), saved=("grad_output", "output"))
def TanhBackwardBackward0(grad, xp, node, grad_output, output):
    e = node.edges
    return (None if e[0] is None else (tanh_backward(grad, output) if xp.tensors else _tanh_bw(grad, output)),
            None if e[1] is None else grad * (-2 * output * grad_output))


def tanh_backward(grad_output, output):
    return result(_tanh_bw(grad_output._a, output._a), TanhBackwardBackward0, (grad_output, output),
                  (grad_output, output))


@rule("SigmoidBackwardBackward0", ("grad_output", "output"),
      ("sigmoid_backward(grad, output)", "grad * grad_output * (1 - 2 * output)"), saved=("grad_output", "output"))
def SigmoidBackwardBackward0(grad, xp, node, grad_output, output):
    e = node.edges
    return (None if e[0] is None else (sigmoid_backward(grad, output) if xp.tensors else _sigmoid_bw(grad, output)),
            None if e[1] is None else grad * grad_output * (-2 * output + 1))


def sigmoid_backward(grad_output, output):
    return result(_sigmoid_bw(grad_output._a, output._a), SigmoidBackwardBackward0, (grad_output, output),
                  (grad_output, output))


declare("tanh_backward", tanh_backward, method=False, function=False, rules=[TanhBackwardBackward0])
declare("sigmoid_backward", sigmoid_backward, method=False, function=False, rules=[SigmoidBackwardBackward0])


# name, kernel, node, saved value, derivative as derivatives.yaml words it, the rule
_math("exp", exp_kernel, "ExpBackward0", "result", "grad * result", lambda grad, xp, result: (grad * result,),
      bare=True, inplace=True)
_math("expm1", _f32_kernel(kernels.sleef_expm1f, np.expm1, kernels.sleef64["expm1"]), "Expm1Backward0", "result", "grad * (result + 1)",
      lambda grad, xp, result: (grad * (result + 1),), bare=True)
_math("log", vml_kernel("log", _f64(np.log)), "LogBackward0", "self", "grad / self", lambda grad, xp, self: (grad / self,), bare=True)
_math("log2", vml_kernel("log2", _f64(np.log2)), "Log2Backward0", "self", "grad / (self * ln 2)",
      lambda grad, xp, self: (grad / (self * 0.6931471805599453),), bare=True)
_math("log10", vml_kernel("log10", _f64(np.log10)), "Log10Backward0", "self", "grad / (self * ln 10)",
      lambda grad, xp, self: (grad / (self * 2.302585092994046),), bare=True)
_math("log1p", _f32_kernel(kernels.sleef_log1pf, np.log1p, kernels.sleef64["log1p"]), "Log1PBackward0", "self", "grad / (self + 1)",
      lambda grad, xp, self: (grad / (self + 1),), bare=True)
_math("sqrt", sqrt_kernel, "SqrtBackward0", "result", "grad / (2 * result)",
      lambda grad, xp, result: (grad / (2 * result),), bare=True)
_math("rsqrt", lambda a: 1 / np.sqrt(a), "RsqrtBackward0", "result", "-0.5 * grad * result ** 3",
      lambda grad, xp, result: (-0.5 * grad * (result ** 3 if xp.tensors else result * result * result),),
      bare=True)    # pow(3)'s kernel is x * x * x (NumPy's power is not)
_math("reciprocal", np.reciprocal, "ReciprocalBackward0", "result", "-grad * result * result",
      lambda grad, xp, result: (-grad * (result * result),), bare=True)
_math("sin", vml_kernel("sin", _f64(np.sin)), "SinBackward0", "self", "grad * self.cos()",
      lambda grad, xp, self: (grad * xp.cos(self),), bare=True)
_math("cos", vml_kernel("cos", _f64(np.cos)), "CosBackward0", "self", "grad * -self.sin()",
      lambda grad, xp, self: (grad * -xp.sin(self),), bare=True)
_math("tan", vml_kernel("tan", _f64(np.tan)), "TanBackward0", "result", "grad * (1 + result ** 2)",
      lambda grad, xp, result: (grad * (1 + result * result),), bare=True)
_math("sinh", _f32_kernel(kernels.sinhf, np.sinh, kernels.unary64("sinh")), "SinhBackward0", "self", "grad * self.cosh()",
      lambda grad, xp, self: (grad * xp.cosh(self),), bare=True)
_math("cosh", _f32_kernel(kernels.coshf, np.cosh, kernels.unary64("cosh")), "CoshBackward0", "self", "grad * self.sinh()",
      lambda grad, xp, self: (grad * xp.sinh(self),), bare=True)
# asin/acos in derivatives.yaml's order: the same bits as PyTorch (and its graph under create_graph)
_math("asin", vml_kernel("asin", _f64(np.arcsin)), "AsinBackward0", "self", "grad * (-self * self + 1).rsqrt()",
      lambda grad, xp, self: (grad * xp.rsqrt(-self * self + 1),), bare=True,
      aliases=("arcsin",))
_math("acos", vml_kernel("acos", _f64(np.arccos)), "AcosBackward0", "self", "grad * -((-self * self + 1).rsqrt())",
      lambda grad, xp, self: (grad * -xp.rsqrt(-self * self + 1),), bare=True,
      aliases=("arccos",))
_math("atan", vml_kernel("atan", _f64(np.arctan)), "AtanBackward0", "self", "grad / (1 + self ** 2)",
      lambda grad, xp, self: (grad / (1 + self * self),), bare=True, aliases=("arctan",))
_math("tanh", vml_kernel("tanh", _f64(np.tanh)), "TanhBackward0", "result", "tanh_backward(grad, result)",
      lambda grad, xp, result: (tanh_backward(grad, result) if xp.tensors else _tanh_bw(grad, result),),
      bare=True, functional=True)
_math("sigmoid", _sigmoid, "SigmoidBackward0", "result", "sigmoid_backward(grad, result)",
      lambda grad, xp, result: (sigmoid_backward(grad, result) if xp.tensors else _sigmoid_bw(grad, result),),
      bare=True, functional=True)
_math("floor", _rounding(np.floor, "floor"), "FloorBackward0", None, "zeros_like(grad)",
      lambda grad, xp: (xp.zeros_like(grad),), float_only=False, bare=True)
_math("ceil", _rounding(np.ceil, "ceil"), "CeilBackward0", None, "zeros_like(grad)",
      lambda grad, xp: (xp.zeros_like(grad),), float_only=False, bare=True)


@rule("NegBackward0", ("self",), ("-grad",))
def NegBackward0(grad, xp):
    return (-grad,)


def neg(a):
    if a.dtype is D.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    out = np.negative(a._a)
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if GRAD[0] and (a._fn is not None or a._rg):
        t = _new(out)
        t._fn = Node(NegBackward0, (edge_of(a),), (), None)
        return t
    return _new(out)


declare("neg", neg, aliases=("negative",), rules=[NegBackward0], bare=True, inplace=unary_inplace(neg),
        dunders={"__neg__": neg, "__pos__": lambda self: self})


@rule("AbsBackward0", ("self",), ("grad * self.sgn()",), saved=("self",))
def AbsBackward0(grad, xp, self):
    return (grad * xp.sign(self),)


@declare("abs", aliases=("absolute",), rules=[AbsBackward0], dunders={"__abs__": lambda self: self.abs()}, inplace=unary_inplace(lambda self: abs(self)))
def abs(self):
    if self._a.dtype.kind == "b":
        raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
    return unary(self, np.abs, AbsBackward0, float_only=False)


def _threshold_bw(grad_output, self, threshold):
    return np.where(self <= threshold, 0, grad_output).astype(grad_output.dtype, copy=False)


@rule("ThresholdBackwardBackward0", ("grad_output", "self"),
      ("threshold_backward(grad, self, threshold)", "zeros_like(grad)"), saved=("self",), ctx=("threshold",))
def ThresholdBackwardBackward0(grad, xp, node, self, threshold):
    e = node.edges
    return (None if e[0] is None else (threshold_backward(grad, self, threshold) if xp.tensors
                                       else _threshold_bw(grad, self, threshold)),
            None if e[1] is None else xp.zeros_like(grad))


def threshold_backward(grad_output, self, threshold):
    return result(_threshold_bw(grad_output._a, self._a, threshold), ThresholdBackwardBackward0,
                  (grad_output, self), (self,), threshold)


declare("threshold_backward", threshold_backward, method=False, function=False, rules=[ThresholdBackwardBackward0])


@rule("ReluBackward0", ("self",), ("threshold_backward(grad, result, 0)",), saved=("result",))
def ReluBackward0(grad, xp, result):
    return (threshold_backward(grad, result, 0) if xp.tensors else _threshold_bw(grad, result, 0),)


def relu(self):
    if self._a.dtype.kind == "b":
        raise RuntimeError("Boolean inputs not supported for relu")
    # clamp_min(self, 0) as its kernel (max_ps(0, x)): -0. and NaN pass through
    return unary(self, lambda a: np.where(a < 0, a.dtype.type(0), a), ReluBackward0, float_only=False)


declare("relu", relu, rules=[ReluBackward0], bare=True, inplace=unary_inplace(relu),
        functional=lambda input, inplace=False: relu(input))


@rule("SignBackward0", ("self",), ("zeros_like(grad)",))
def SignBackward0(grad, xp):
    return (xp.zeros_like(grad),)


def sign(self):
    return unary(self, _sign_kernel, SignBackward0, float_only=False)


def _sign_kernel(a):
    """(0 < a) - (a < 0), as PyTorch's sign kernel: NaN gives 0."""
    if a.dtype.kind == "b":
        return a.copy()
    if a.dtype.kind != "f":
        return np.sign(a)
    return np.greater(a, 0).astype(a.dtype) - np.less(a, 0).astype(a.dtype)


declare("sign", sign, rules=[SignBackward0], bare=True, inplace=unary_inplace(sign))


def square(self):
    return pow(self, 2)


declare("square", square, rules=[], bare=True, inplace=unary_inplace(square))


@rule("RoundBackward0", ("self",), ("zeros_like(grad)",))
def RoundBackward0(grad, xp):
    return (xp.zeros_like(grad),)


@rule("RoundBackward1", ("self",), ("zeros_like(grad)",))
def RoundBackward1(grad, xp):
    return (xp.zeros_like(grad),)


def round(self, decimals=None):
    if decimals:
        return unary(self, lambda a: np.round(a, decimals), RoundBackward1)
    # round(x, decimals=0) is the decimals overload: RoundBackward1
    return unary(self, _rounding(np.round, "round"), RoundBackward0 if decimals is None else RoundBackward1,
                 float_only=False)


declare("round", round, rules=[RoundBackward0, RoundBackward1], inplace=unary_inplace(round))


# ================================================================ clamp, masked_fill, leaky_relu
def _in_range(x, lo, hi):
    m = np.ones(x.shape, bool)
    if lo is not None:
        m &= x >= lo
    if hi is not None:
        m &= x <= hi
    return m


@rule("ClampBackward1", ("self",), ("grad where min <= self <= max, else 0",), saved=("self",), ctx=("min", "max"))
def ClampBackward1(grad, xp, self, min, max):
    return (grad * xp.mask(_in_range(xp.raw(self), min, max), grad),)


@rule("ClampBackward0", ("self", "min", "max"),
      ("grad where min <= self <= max, else 0", "grad where self < min (and min < max), else 0",
       "grad where self > max (or max < min), else 0"), saved=("self",), ctx=("min", "max", "shapes"))
def ClampBackward0(grad, xp, self, min, max, shapes):
    x, lo, hi = xp.raw(self), min, max
    keep = np.ones(np.broadcast_shapes(x.shape, *(b.shape for b in (lo, hi) if b is not None)), bool)
    if lo is not None:
        keep = keep & (x >= lo)
    if hi is not None:
        keep = keep & (x <= hi)
    gx = xp.sum_to(grad * xp.mask(keep, grad), shapes[0]) if shapes[0] is not None else None
    gmin = gmax = None
    if shapes[1] is not None:
        cond = (x < lo) & (lo < hi) if hi is not None else x < lo
        gmin = xp.sum_to(grad * xp.mask(cond, grad), shapes[1])
    if shapes[2] is not None:
        cond = (x > hi) | (hi < lo) if lo is not None else x > hi
        gmax = xp.sum_to(grad * xp.mask(cond, grad), shapes[2])
    return (gx, gmin, gmax)


def _clamp_tensor(self, min, max):
    """clamp with tensor bounds (broadcast): min(max(self, min), max), gradients to the bounds too."""
    lo = min if min is None or type(min) is Tensor else scalar_tensor(min, self)
    hi = max if max is None or type(max) is Tensor else scalar_tensor(max, self)
    dt = D.result_type(tuple(t for t in (self, lo, hi) if t is not None))
    out = self._a.astype(dt.np, copy=False)
    if lo is not None:
        out = np.maximum(out, lo._a.astype(dt.np, copy=False))
    if hi is not None:
        out = np.minimum(out, hi._a.astype(dt.np, copy=False))
    grads = tuple(None if t is None or not (t._fn is not None or t._rg) else t._a.shape for t in (self, lo, hi))
    return result(np.asarray(out), ClampBackward0, (self, lo, hi), (self,),
                  (None if lo is None else lo._a, None if hi is None else hi._a, grads))


def clamp(self, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if type(min) is Tensor or type(max) is Tensor:
        return _clamp_tensor(self, min, max)
    lo = min.item() if type(min) is Tensor else min
    hi = max.item() if type(max) is Tensor else max
    dt = D.result_type(tuple(v for v in (self, lo, hi) if v is not None)).np   # a float bound makes ints float
    out = self._a.astype(dt, copy=False)
    if lo is not None:
        out = np.maximum(out, np.asarray(lo, dt))
    if hi is not None:
        out = np.minimum(out, np.asarray(hi, dt))
    return result(np.asarray(out), ClampBackward1, (self,), (self,), (lo, hi))


def clamp_inplace(forward):
    """clamp_, clamp_min_, clamp_max_: tensor bounds are checked as TensorIterator operands (PyTorch's
    `Long` in the message); a number bound that makes the result float fails in the op (`long int`)."""
    def method(self, *bounds, **kw):
        tensors = tuple(b for b in bounds + tuple(kw.values()) if type(b) is Tensor)
        if tensors and self._a.dtype.kind not in "fV":
            rd = D.result_type((self,) + tensors)
            if D.promote_types(rd, self.dtype) is not self.dtype:
                raise RuntimeError(f"result type {legacy_scalar(rd)} can't be cast to the desired output type "
                                   f"{legacy_scalar(self.dtype)}")
        return inplace(self, None, lambda s, _other: forward(s, *bounds, **kw))
    return method


declare("clamp", clamp, aliases=("clip",), rules=[ClampBackward1, ClampBackward0], bare=True,
        inplace=clamp_inplace(clamp))


@rule("ClampMinBackward0", ("self",), ("grad where self >= min, else 0",), saved=("self",), ctx=("min",))
def ClampMinBackward0(grad, xp, self, min):
    return (grad * xp.mask(_in_range(xp.raw(self), min, None), grad),)


@rule("ClampMaxBackward0", ("self",), ("grad where self <= max, else 0",), saved=("self",), ctx=("max",))
def ClampMaxBackward0(grad, xp, self, max):
    return (grad * xp.mask(_in_range(xp.raw(self), None, max), grad),)


def _clamp_one(self, bound, spec, ufunc):
    b = bound.item() if type(bound) is Tensor else bound
    dt = D.result_type((self, b)).np
    out = np.asarray(ufunc(self._a.astype(dt, copy=False), np.asarray(b, dt)))
    return result(out, spec, (self,), (self,), b)


def clamp_min(self, min):
    return _clamp_one(self, min, ClampMinBackward0, np.maximum)


def clamp_max(self, max):
    return _clamp_one(self, max, ClampMaxBackward0, np.minimum)


declare("clamp_min", clamp_min, rules=[ClampMinBackward0], inplace=clamp_inplace(clamp_min))
declare("clamp_max", clamp_max, rules=[ClampMaxBackward0], inplace=clamp_inplace(clamp_max))


@rule("MaskedFillBackward0", ("self",), ("grad.masked_fill(mask, 0)",), ctx=("mask",))
def MaskedFillBackward0(grad, xp, mask):
    return (grad * xp.mask(~mask, grad),)


@rule("MaskedFillBackward1", ("self", "value"), ("grad.masked_fill(mask, 0)", "grad.masked_select(mask).sum()"),
      ctx=("mask", "self_shape"))
def MaskedFillBackward1(grad, xp, node, mask, self_shape):
    gs = grad * xp.mask(~mask, grad) if node.edges[0] is not None else None
    gv = xp.sum(grad * xp.mask(mask, grad), tuple(range(grad.ndim)), False) if node.edges[1] is not None else None
    return (None if gs is None else xp.sum_to(gs, self_shape), gv)


def _arg_kind(v):
    """An argument's type as PyTorch's "invalid combination" messages name it."""
    if isinstance(v, list):
        return "list of [" + ", ".join(pytype(e) for e in v) + "]"
    if isinstance(v, tuple):
        return "tuple of (" + ", ".join(pytype(e) for e in v) + ")"
    return pytype(v)


def _masked_fill_args(name, mask, value, lead=""):
    """PyTorch's argument check: a Tensor mask and a Tensor or Number value."""
    bad_mask = type(mask) is not Tensor
    if not bad_mask and (type(value) is Tensor or type(value) in (bool, int, float)):
        return
    got = ", ".join(["Tensor"] * bool(lead) + [pytype(mask), pytype(value)])
    marks = ", ".join(["Tensor"] * bool(lead) + [f"!{_arg_kind(mask)}!" if bad_mask else "Tensor",
                                                  f"!{_arg_kind(value)}!"])
    sig = "Tensor input, " if lead else ""
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                    f" * ({sig}Tensor mask, Tensor value)\n"
                    f"      didn't match because some of the arguments have invalid types: ({marks})\n"
                    f" * ({sig}Tensor mask, Number value)\n"
                    f"      didn't match because some of the arguments have invalid types: ({marks})\n")


def _masked_fill(self, mask, value, name="masked_fill", lead=""):
    _masked_fill_args(name, mask, value, lead)
    if mask._a.dtype.kind != "b":
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {cname(mask.dtype)}")
    if type(value) is Tensor and value._a.ndim:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._a.ndim} dimension(s).")
    m = mask._a
    # the element budget, before the work; out of place PyTorch broadcasts the mask first (expand_outplace)
    broadcast_shape(*((self._a.shape, m.shape) if name.endswith("_") else (m.shape, self._a.shape)))
    v = value._a[()] if type(value) is Tensor else value
    out = np.where(m, np.asarray(v).astype(self._a.dtype), self._a)
    m = np.broadcast_to(m, out.shape)
    if type(value) is Tensor:
        return result(out, MaskedFillBackward1, (self, value), (), (m, self._a.shape))
    return result(out, MaskedFillBackward0, (self,), (), m)


def _torch_masked_fill(input, mask, value):
    return _masked_fill(as_tensor(input), mask, value, lead="input")


def _masked_fill_(self, mask, value):
    _masked_fill_args("masked_fill_", mask, value)
    return inplace(self, None, lambda s, _other: _masked_fill(s, mask, value, name="masked_fill_"))


@declare("masked_fill", rules=[MaskedFillBackward0, MaskedFillBackward1], torch_forward=_torch_masked_fill,
         inplace=_masked_fill_)
def masked_fill(self, mask, value):
    return _masked_fill(self, mask, value)


def _leaky_relu_bw(grad_output, self, negative_slope):
    dt = grad_output.dtype
    return grad_output * ((self > 0).astype(dt) + (self <= 0).astype(dt) * negative_slope)


@rule("LeakyReluBackwardBackward0", ("grad_output", "self"),
      ("leaky_relu_backward(grad, self, negative_slope)", "zeros_like(grad)"), saved=("self",),
      ctx=("negative_slope",))
def LeakyReluBackwardBackward0(grad, xp, node, self, negative_slope):
    e = node.edges
    return (None if e[0] is None else (leaky_relu_backward(grad, self, negative_slope) if xp.tensors
                                       else _leaky_relu_bw(grad, self, negative_slope)),
            None if e[1] is None else xp.zeros_like(grad))


def leaky_relu_backward(grad_output, self, negative_slope):
    return result(_leaky_relu_bw(grad_output._a, self._a, negative_slope), LeakyReluBackwardBackward0,
                  (grad_output, self), (self,), negative_slope)


declare("leaky_relu_backward", leaky_relu_backward, method=False, function=False, rules=[LeakyReluBackwardBackward0])


@rule("LeakyReluBackward0", ("self",), ("leaky_relu_backward(grad, self, negative_slope)",), saved=("self",),
      ctx=("negative_slope",))
def LeakyReluBackward0(grad, xp, self, negative_slope):
    if xp.tensors:
        return (leaky_relu_backward(grad, self, negative_slope),)
    return (_leaky_relu_bw(grad, self, negative_slope),)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    x = input._a
    out = np.where(x > 0, x, x * negative_slope).astype(x.dtype)
    return result(out, LeakyReluBackward0, (input,), (input,), negative_slope)


declare("leaky_relu", leaky_relu, method=False, function=False, functional=True, rules=[LeakyReluBackward0])


# ================================================================ shrinkage, threshold, glu
@rule("HardshrinkBackward0", ("self",), ("grad where |self| > lambd, else 0",), saved=("self",), ctx=("lambd",))
def HardshrinkBackward0(grad, xp, self, lambd):
    s = xp.raw(self)
    return (xp.depends(grad * xp.mask(~((s >= -lambd) & (s <= lambd)), grad), self),)


@rule("SoftshrinkBackward0", ("self",), ("grad where |self| > lambd, else 0",), saved=("self",), ctx=("lambd",))
def SoftshrinkBackward0(grad, xp, self, lambd):
    s = xp.raw(self)
    return (xp.depends(grad * xp.mask(~((s >= -lambd) & (s <= lambd)), grad), self),)


def _check_lambd(self, lambd):
    if lambd < 0:
        name = {"float32": "Float", "float64": "Double"}.get(self._a.dtype.name, self._a.dtype.name)
        raise RuntimeError(f"lambda must be in range [0, 3.40282e+38] for input dtype {name}, but found {lambd:g}")


def hardshrink(self, lambd=0.5):
    a = self._a
    l = a.dtype.type(lambd)
    out = np.where((a >= -l) & (a <= l), a.dtype.type(0), a)
    return result(out, HardshrinkBackward0, (self,), (self,), l)


def softshrink(input, lambd=0.5):
    _check_lambd(input, lambd)
    a = input._a
    l = a.dtype.type(lambd)

    def scalar(v):      # the scalar loop: a * 0 between -lambd and lambd (-0.0 for negatives)
        return np.where(v > l, v - l, np.where(v < -l, v + l, v * v.dtype.type(0))).astype(v.dtype, copy=False)

    def vector(v):      # the vectorised body: +0.0 there, NaN passed on
        out = np.where(v > l, v - l, np.where(v < -l, v + l, v.dtype.type(0))).astype(v.dtype, copy=False)
        return np.where(np.isnan(v), v, out)
    with np.errstate(invalid="ignore"):
        out = kernels.body_and_tail(a, vector, scalar) if a.dtype in (np.float32, np.float64) else scalar(a)
    return result(out, SoftshrinkBackward0, (input,), (input,), l)


declare("hardshrink", hardshrink, functional=True, rules=[HardshrinkBackward0])
declare("softshrink", softshrink, method=False, function=False, functional=True, rules=[SoftshrinkBackward0])


@rule("ThresholdBackward0", ("self",), ("grad where self > threshold, else 0",), saved=("self",), ctx=("threshold",))
def ThresholdBackward0(grad, xp, self, threshold):
    return (xp.depends(grad * xp.mask(xp.raw(self) > threshold, grad), self),)


ThresholdBackward1 = rule("ThresholdBackward1", ("self",), ("grad where self > threshold, else 0",), saved=("self",),
                          ctx=("threshold",))(ThresholdBackward0.fn)   # the in-place threshold_


def _threshold(input, cut, value, spec=ThresholdBackward0):
    a = input._a
    t = np.asarray(cut).astype(a.dtype)[()]
    out = np.where(a > t, a, np.asarray(value).astype(a.dtype)).astype(a.dtype, copy=False)
    return result(out, spec, (input,), (input,), t)


def threshold(input, threshold, value, inplace=False):
    if inplace:
        return threshold_(input, threshold, value)
    return _threshold(input, threshold, value)


def threshold_(input, threshold, value):
    return inplace(input, None, lambda s, _other: _threshold(s, threshold, value, ThresholdBackward1))


declare("threshold", threshold, method=False, functional=True, rules=[ThresholdBackward0])
declare("threshold_", threshold_, method=False, functional=True, rules=[ThresholdBackward1])


@rule("GluBackward0", ("self",), ("cat(grad * sigmoid(b), grad * a * sigmoid(b) * (1 - sigmoid(b)))",),
      saved=("self",), ctx=("dim",))
def GluBackward0(grad, xp, self, dim):
    n = self.shape[dim] // 2
    a = xp.index(self, (slice(None),) * dim + (slice(0, n),))
    b = xp.index(self, (slice(None),) * dim + (slice(n, 2 * n),))
    sig = 1 / (1 + xp.exp(-b))
    return (xp.cat([grad * sig, grad * a * sig * (1 - sig)], dim),)


def glu(input, dim=-1):
    a = input._a
    if a.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = wrap_dim(dim, a.ndim)
    if a.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {a.shape[d]}")
    first, second = np.split(a, 2, axis=d)
    out = (first * _sigmoid(second)).astype(a.dtype, copy=False)
    return result(out, GluBackward0, (input,), (input,), d)


declare("glu", glu, method=False, function=False, functional=True, rules=[GluBackward0])
