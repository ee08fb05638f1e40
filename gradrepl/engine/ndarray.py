"""What `Tensor.numpy()` gives user code: the tensor's memory shown as NumPy shows an
ndarray, never the ndarray itself.

PyTorch's numpy() shares memory with the tensor: `t.add_(1)` shows in the array and
writes into the array show in the tensor. The stand-in keeps the tensor and reads its
current values each time, so printing behaves the same; `torch.from_numpy` gives the
tensor back. NumPy's own functions are not offered (there is no `numpy` module here).
"""
import operator

import numpy as np


class NumpyDType:
    """`arr.dtype`: prints as NumPy's dtype does (`float32`, `dtype('float32')`)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"dtype('{self.name}')"

    def __str__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, NumpyDType) and other.name == self.name or other == self.name

    def __hash__(self):
        return hash(self.name)


_BASIC = (int, slice, type(None), type(Ellipsis))


class _Part:
    """Values cut out of an array by basic indexing: a view, as NumPy's."""

    __slots__ = ("_a",)

    def __init__(self, values):
        self._a = values


class NumpyArray:
    """A NumPy array's face over a tensor's memory (see the module's docstring)."""

    __slots__ = ("_source",)

    def __init__(self, source):
        self._source = source        # the Tensor (or a _Part): anything with the array as `_a`

    def _values(self):
        return self._source._a

    def __repr__(self):
        return np.array_repr(self._values())

    def __str__(self):
        return np.array_str(self._values())

    def __format__(self, spec):
        if spec:
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        return str(self)

    @property
    def shape(self):
        return tuple(int(n) for n in self._values().shape)

    @property
    def ndim(self):
        return self._values().ndim

    @property
    def size(self):
        return int(self._values().size)

    @property
    def dtype(self):
        return NumpyDType(self._values().dtype.name)

    def tolist(self):
        return self._values().tolist()

    def item(self, *args):
        return self._values().item(*args)

    def __len__(self):
        values = self._values()
        if values.ndim == 0:
            raise TypeError("len() of unsized object")
        return len(values)

    def __iter__(self):
        values = self._values()
        if values.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for k in range(len(values)):
            row = values[k]
            yield row.item() if row.ndim == 0 else NumpyArray(_Part(row))

    def __getitem__(self, index):
        items = index if type(index) is tuple else (index,)
        if not all(type(i) in _BASIC for i in items):
            raise IndexError("arrays from Tensor.numpy() take integers and slices in gradrepl "
                             "(index the tensor for anything else)")
        row = self._values()[index]
        return row.item() if np.ndim(row) == 0 else NumpyArray(_Part(row))


    # NumPy's arithmetic and comparisons with numbers and other arrays (`a * 2`, `a > 0`)
    def _binary(self, other, op, reflected=False):
        if type(other) is NumpyArray:
            other = other._values()
        elif type(other) not in (int, float, bool, NumpyFloat, NumpyInt):
            return NotImplemented
        a = self._values()
        return _wrap(op(other, a) if reflected else op(a, other))

    def __add__(self, o): return self._binary(o, operator.add)
    def __radd__(self, o): return self._binary(o, operator.add, True)
    def __sub__(self, o): return self._binary(o, operator.sub)
    def __rsub__(self, o): return self._binary(o, operator.sub, True)
    def __mul__(self, o): return self._binary(o, operator.mul)
    def __rmul__(self, o): return self._binary(o, operator.mul, True)
    def __truediv__(self, o): return self._binary(o, operator.truediv)
    def __rtruediv__(self, o): return self._binary(o, operator.truediv, True)
    def __floordiv__(self, o): return self._binary(o, operator.floordiv)
    def __mod__(self, o): return self._binary(o, operator.mod)
    def __pow__(self, o): return self._binary(o, operator.pow)
    def __lt__(self, o): return self._binary(o, operator.lt)
    def __le__(self, o): return self._binary(o, operator.le)
    def __gt__(self, o): return self._binary(o, operator.gt)
    def __ge__(self, o): return self._binary(o, operator.ge)
    def __eq__(self, o): return self._binary(o, operator.eq)
    def __ne__(self, o): return self._binary(o, operator.ne)
    __hash__ = None

    def __neg__(self):
        return _wrap(-self._values())

    def __abs__(self):
        return _wrap(abs(self._values()))

    # NumPy's reductions, as learners call them on what numpy() gave (`a.sum()`, `a.max(axis=0)`)
    def _reduce(self, name, axis=None, keepdims=False, **kw):
        if axis is not None and type(axis) is not int and not (type(axis) is tuple and
                                                               all(type(d) is int for d in axis)):
            raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer")
        if keepdims:
            kw["keepdims"] = True
        return _wrap(getattr(self._values(), name)(axis=axis, **kw))

    def sum(self, axis=None, keepdims=False):
        return self._reduce("sum", axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        return self._reduce("mean", axis, keepdims)

    def max(self, axis=None, keepdims=False):
        return self._reduce("max", axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return self._reduce("min", axis, keepdims)

    def prod(self, axis=None, keepdims=False):
        return self._reduce("prod", axis, keepdims)

    def std(self, axis=None, ddof=0, keepdims=False):
        return self._reduce("std", axis, keepdims, ddof=ddof)

    def var(self, axis=None, ddof=0, keepdims=False):
        return self._reduce("var", axis, keepdims, ddof=ddof)

    def argmax(self, axis=None):
        return self._reduce("argmax", axis)

    def argmin(self, axis=None):
        return self._reduce("argmin", axis)

    def round(self, decimals=0):
        if type(decimals) is not int:
            raise TypeError(f"'{type(decimals).__name__}' object cannot be interpreted as an integer")
        return _wrap(self._values().round(decimals))


class _NumpyScalar:
    """A Python number that prints as the NumPy scalar it came from (`_np`)."""

    __slots__ = ()

    def __new__(cls, value):
        obj = super().__new__(cls, cls._python(value))
        obj._np = value
        return obj

    def __repr__(self):
        return repr(self._np)

    def __str__(self):
        return str(self._np)

    def item(self):
        return self._python(self)


class NumpyFloat(_NumpyScalar, float):
    """A NumPy float scalar (`a.sum()` of a float32 array): prints as NumPy's (`4.0`,
    `np.float32(4.0)`); arithmetic on it is Python's."""

    __slots__ = ("_np",)
    _python = float


class NumpyInt(_NumpyScalar, int):
    """A NumPy integer scalar (`a.argmax()`): prints as NumPy's (`3`, `np.int64(3)`)."""

    _python = int


def _wrap(result):
    """A NumPy result as user code sees it: arrays behind the stand-in, scalars as the above."""
    if isinstance(result, np.ndarray):
        return NumpyArray(_Part(result))
    if isinstance(result, np.floating):
        return NumpyFloat(result)
    if isinstance(result, np.bool_):
        return bool(result)
    return NumpyInt(result)


ARRAY_ATTRS = frozenset({"shape", "ndim", "size", "dtype", "tolist", "item", "sum", "mean", "max", "min", "prod",
                         "std", "var", "argmax", "argmin", "round"})
SCALAR_ATTRS = frozenset({"item"})
DTYPE_ATTRS = frozenset({"name"})
