"""Conversions: dtype changes (to, float, long, ...), device no-ops, detach as torch.detach."""
from gradrepl.engine import dtypes as D
from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import Tensor


@rule("ToCopyBackward0", ("self",), ("grad.to(self.dtype)",), ctx=("dtype",))
def ToCopyBackward0(grad, xp, dtype):
    return (xp.cast(grad, dtype),)


def convert(t, dtype):
    if dtype is t.dtype:
        return t
    out = t._a.astype(dtype.np)
    return result(out, ToCopyBackward0, (t,) if dtype.is_floating_point else (), (), t.dtype)


@declare("to", function=False, rules=[ToCopyBackward0])
def to(self, *args, **kwargs):
    dtype = kwargs.get("dtype")
    for a in args:
        if isinstance(a, D.DType):
            dtype = a
        elif type(a) is Tensor:
            dtype = a.dtype
    if dtype is None or dtype is self.dtype:
        return self
    return convert(self, dtype)


def _to_dtype(name, dtype):
    def method(self):
        return convert(self, dtype)
    method.__name__ = name
    declare(name, method, function=False, rules=[ToCopyBackward0])


for _name, _dtype in (("float", D.float32), ("double", D.float64), ("half", D.float16), ("long", D.int64),
                      ("int", D.int32), ("bool", D.bool_)):
    _to_dtype(_name, _dtype)


@declare("type", function=False, rules=[ToCopyBackward0], returns_tensor=False)
def type_(self, dtype=None):
    if dtype is None:
        return "torch." + self.dtype.legacy
    return self.to(dtype)


@declare("cpu", function=False, rules=[])
def cpu(self):
    return self


declare("detach", Tensor.detach, method=False, rules=[])
