"""In-place sampling (`normal_`, `uniform_`, `random_`, `exponential_`, `bernoulli_`, ...)
and the `new_*` factories of a tensor: no autograd history, PyTorch's numbers (rng.py)."""
import numpy as np

from gradrepl.engine import creation as C
from gradrepl.engine import devices
from gradrepl.engine import rng
from gradrepl.engine.ops.common import check_leaf_inplace
from gradrepl.engine.ops.registry import declare
from gradrepl.engine.tensor import Tensor
from gradrepl.engine.util import shape_args, warn


def _gen(generator):
    if generator is None:
        return rng.default_generator
    if type(generator) is not rng.Generator:   # never a user object the engine calls into
        raise TypeError(f"generator must be a torch.Generator, not {type(generator).__name__}")
    return generator


def _write(t, values):
    check_leaf_inplace(t)
    a = t._a
    a[...] = np.asarray(values).reshape(a.shape).astype(a.dtype, copy=False)
    t._ver[0] += 1
    return t


def _no_data(t):
    """A meta tensor without data draws nothing (torch.nn.init on a meta module)."""
    if devices.META and devices.dataless(t):
        check_leaf_inplace(t)
        t._ver[0] += 1
        return True
    return False


def _floating(t, name):
    if t._a.dtype.kind not in "fV":
        raise NotImplementedError(f'"{name}_kernel_cpu" not implemented for \'{t.dtype.legacy[:-len("Tensor")]}\'')


def _contiguous(t):
    return t._a.flags.c_contiguous


@declare("normal_", method=True, function=False, rules=[])
def normal_(self, mean=0.0, std=1.0, *, generator=None):
    _floating(self, "normal")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    a = self._a
    if _no_data(self):
        return self
    return _write(self, _gen(generator).normal(a.shape, mean, std, a.dtype, _contiguous(self)))


@declare("uniform_", method=True, function=False, rules=[])
def uniform_(self, from_=0.0, to=1.0, *, generator=None, **kwargs):
    if "from" in kwargs:
        from_ = kwargs.pop("from")
    if kwargs:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    _floating(self, "uniform")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_} > to={to}")
    a = self._a
    if _no_data(self):
        return self
    return _write(self, _gen(generator).uniform(a.shape, from_, to, a.dtype))


_RANDOM_TOP = {"float32": (1 << 24) + 1, "float64": (1 << 53) + 1, "float16": (1 << 11) + 1, "bfloat16": (1 << 8) + 1,
               "int64": 1 << 63, "int32": 1 << 31, "int16": 1 << 15, "int8": 1 << 7, "uint8": 1 << 8,
               "bool": 2}


@declare("random_", method=True, function=False, rules=[])
def random_(self, from_=None, to=None, *, generator=None):
    if from_ is None:
        low, high = 0, _RANDOM_TOP[self._a.dtype.name]
    elif to is None:
        low, high = 0, from_
    else:
        low, high = from_, to
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    a = self._a
    return _write(self, _gen(generator).randint(low, high, a.shape, np.int64))


@declare("exponential_", method=True, function=False, rules=[])
def exponential_(self, lambd=1.0, *, generator=None):
    _floating(self, "exponential")
    a = self._a
    return _write(self, _gen(generator).exponential(a.shape, lambd, a.dtype))


@declare("bernoulli_", method=True, function=False, rules=[])
def bernoulli_(self, p=0.5, *, generator=None):
    a = self._a
    probs = p._a if type(p) is Tensor else p
    if type(probs) is np.ndarray:
        probs = np.broadcast_to(probs, a.shape)
    return _write(self, _gen(generator).bernoulli(probs, a.shape, a.dtype))


@declare("cauchy_", method=True, function=False, rules=[])
def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    _floating(self, "cauchy")
    a = self._a
    values = _gen(generator).cauchy((a.size,), float(median), float(sigma), a.dtype)
    return _write(self, _in_memory_order(a, values))


def _in_memory_order(a, values):
    """Values a serial kernel draws in memory order (TensorIterator walks a transposed or sliced
    tensor by its strides), placed at a's logical positions."""
    if a.flags.c_contiguous:
        return values.reshape(a.shape)
    idx = np.indices(a.shape).reshape(a.ndim, -1)
    offsets = (idx * np.array(a.strides)[:, None]).sum(0)
    out = np.empty(a.size, values.dtype)
    out[np.argsort(offsets, kind="stable")] = values
    return out.reshape(a.shape)


@declare("log_normal_", method=True, function=False, rules=[])
def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    _floating(self, "log_normal")
    a = self._a
    return _write(self, np.exp(_gen(generator).normal(a.shape, mean, std, a.dtype, _contiguous(self))))


# ---------------------------------------------------------------- new_* factories
def _new_factory(name, make):
    def fn(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, **kw):
        devices.check(device)
        if "size" in kw:
            size = (kw.pop("size"),)
        if kw:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kw))}'")
        return make(self, shape_args(size), dtype or self.dtype, requires_grad)
    fn.__name__ = name
    declare(name, fn, function=False, rules=[])


_new_factory("new_zeros", lambda self, shape, dt, rg: C.zeros(*shape, dtype=dt, requires_grad=rg))
_new_factory("new_ones", lambda self, shape, dt, rg: C.ones(*shape, dtype=dt, requires_grad=rg))
_new_factory("new_empty", lambda self, shape, dt, rg: C.empty(*shape, dtype=dt, requires_grad=rg))


@declare("new_full", function=False, rules=[])
def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    devices.check(device)
    return C.full(tuple(shape_args((size,))), fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)


@declare("new_tensor", function=False, rules=[])
def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    devices.check(device)
    if type(data) is Tensor:
        warn("UserWarning", "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
             "or sourceTensor.detach().clone().requires_grad_(True), rather than tensor.new_tensor(sourceTensor).")
        out = data.detach().clone()
        if out.dtype != (dtype or self.dtype):
            out = out.to(dtype or self.dtype)
        return out.requires_grad_(True) if requires_grad else out
    return C.tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


