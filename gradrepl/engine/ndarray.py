"""What `Tensor.numpy()` gives user code: the tensor's memory shown as NumPy shows an
ndarray, never the ndarray itself.

PyTorch's numpy() shares memory with the tensor: `t.add_(1)` shows in the array and
writes into the array show in the tensor. The stand-in keeps the tensor and reads its
current values each time, so printing behaves the same; `torch.from_numpy` gives the
tensor back. NumPy's own functions are not offered (there is no `numpy` module here).
"""
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


ARRAY_ATTRS = frozenset({"shape", "ndim", "size", "dtype", "tolist", "item"})
DTYPE_ATTRS = frozenset({"name"})
