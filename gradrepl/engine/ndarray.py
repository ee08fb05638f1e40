"""What `t.numpy()` gives user code: a read-only stand-in for the NumPy array PyTorch
returns (`type()` shows `gradrepl.ndarray`: the host class is never named). It shares the tensor's memory (an in-place change of the tensor shows through,
as the tutorials demonstrate), prints exactly as NumPy prints, and hands out no host
object: items come back as Python numbers, sub-arrays as stand-ins."""
import numpy as np


class NdarrayView:
    __slots__ = ("_a",)

    def __init__(self, arr):
        self._a = arr

    def __repr__(self):
        return np.array_repr(self._a)

    def __str__(self):
        return np.array_str(self._a)

    def __format__(self, spec):
        if spec:
            if self._a.ndim:
                raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
            return format(self._a.item(), spec)
        return str(self)

    def __len__(self):
        if not self._a.ndim:
            raise TypeError("len() of unsized object")
        return len(self._a)

    def __getitem__(self, index):
        if isinstance(index, NdarrayView):
            index = index._a
        out = self._a[index]
        return NdarrayView(out) if isinstance(out, np.ndarray) else out.item()

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def tolist(self):
        return self._a.tolist()

    def item(self):
        return self._a.item()

    @property
    def shape(self):
        return tuple(int(s) for s in self._a.shape)

    @property
    def ndim(self):
        return self._a.ndim

    @property
    def size(self):
        return int(self._a.size)

    def sum(self):
        return self._a.sum().item()

    def __eq__(self, other):
        return NdarrayView(self._a == (other._a if isinstance(other, NdarrayView) else other))

    __hash__ = None


ATTRS = frozenset(("shape", "ndim", "size", "tolist", "item", "sum"))
