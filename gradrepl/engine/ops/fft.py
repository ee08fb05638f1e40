"""torch.fft: discrete Fourier transforms.

PyTorch's CPU build computes them with MKL's DFTI. The complex-to-complex transforms call
DFTI as aten does (engine/mkl.py: PyTorch's bits, checked on float32 of many sizes); the
real-to-complex and complex-to-real ones use NumPy 2's pocketfft, in the input's precision
(float32 stays float32), so their values agree with PyTorch's to rounding, not always to
the last bit (as everything does without MKL). As in ATen (SpectralOps.cpp), an input is first promoted (`to`, a
ToCopyBackward0), cut (`slice`) and zero-padded (`constant_pad_nd`) to the sizes asked for,
then transformed by one of three kernels with PyTorch's nodes: complex to complex
(FftC2CBackward0), real to complex (FftR2CBackward0), complex to real (FftC2RBackward0).
"""
import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.mkl import dft_c2c
from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.indexing import getitem
from gradrepl.engine.ops.nn import pad as _pad
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import legacy_scalar, pytype, wrap_dim

# ATen's fft_norm_mode, and the NumPy norm that gives it for each direction
_FORWARD = {"none": "backward", "by_n": "forward", "by_root_n": "ortho"}
_INVERSE = {"none": "forward", "by_n": "backward", "by_root_n": "ortho"}


def _mode(norm, forward):
    """ATen's norm_from_string."""
    if norm is None or norm == "backward":
        return "none" if forward else "by_n"
    if norm == "forward":
        return "by_n" if forward else "none"
    if norm == "ortho":
        return "by_root_n"
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


# ------------------------------------------------------------------ the three kernels and their nodes
@rule("FftC2CBackward0", ("self",), ("_fft_c2c(grad, dim, normalization, !forward)",),
      ctx=("dims", "mode", "forward"))
def FftC2CBackward0(grad, xp, dims, mode, forward):
    if xp.tensors:
        return (_c2c(grad, dims, mode, not forward),)
    return (_c2c_array(grad, dims, mode, not forward),)


def _c2c_array(a, dims, mode, forward):
    """MKL's DFTI as PyTorch's CPU build calls it (the same bits), pocketfft without MKL."""
    out = dft_c2c(a, list(dims), mode, forward)
    if out is None:
        out = (np.fft.fftn if forward else np.fft.ifftn)(a, axes=dims, norm=(_FORWARD if forward else _INVERSE)[mode])
    return np.asarray(out, a.dtype)


def _c2c(x, dims, mode, forward):
    return result(_c2c_array(x._a, dims, mode, forward), FftC2CBackward0, (x,), (), (tuple(dims), mode, forward))


@rule("FftR2CBackward0", ("self",), ("fft_r2c_backward(grad, dim, normalization, onesided, self.sym_size(dim.back()))",),
      ctx=("dims", "mode", "last_size"))
def FftR2CBackward0(grad, xp, dims, mode, last_size):
    last = dims[-1]
    if xp.tensors:      # the one-sided gradient zero-padded (ATen copies it into new zeros), c2c, real part
        full = grad
        if grad.shape[last] != last_size:
            pads = [0] * (2 * grad.ndim)
            pads[2 * (grad.ndim - 1 - last) + 1] = last_size - grad.shape[last]
            full = _pad(grad, tuple(pads), "constant", 0)
        return (_c2c(full, dims, mode, False).real,)
    full = grad
    if grad.shape[last] != last_size:      # the one-sided gradient zero-padded to the whole spectrum
        shape = list(grad.shape)
        shape[last] = last_size
        full = np.zeros(shape, grad.dtype)
        full[(slice(None),) * last + (slice(0, grad.shape[last]),)] = grad
    out = np.fft.ifftn(full, axes=dims, norm=_INVERSE[mode])
    return (np.ascontiguousarray(np.asarray(out, grad.dtype).real),)


def _r2c(x, dims, mode, onesided=True):
    a = x._a
    out = (np.fft.rfftn if onesided else np.fft.fftn)(a, axes=dims, norm=_FORWARD[mode])
    cdt = np.complex128 if a.dtype == np.float64 else np.complex64
    return result(np.asarray(out, cdt), FftR2CBackward0, (x,), (), (tuple(dims), mode, a.shape[dims[-1]]))


@rule("FftC2RBackward0", ("self",), ("fft_c2r_backward(grad, dim, normalization)",), ctx=("dims", "mode"))
def FftC2RBackward0(grad, xp, dims, mode):
    last = dims[-1]
    if xp.tensors:      # r2c of the gradient, the entries that stand for two doubled (ATen: narrow().mul_(2))
        gi = _r2c(grad, dims, mode)
        double = grad.shape[last] - gi.shape[last]
        if double > 0:
            scale = np.ones(gi.shape[last], np.float64 if grad.dtype is D.float64 else np.float32)
            scale[1:1 + double] = 2
            gi = gi * _new(scale.reshape((-1,) + (1,) * (gi.ndim - 1 - last)))
        return (gi,)
    cdt = np.complex128 if grad.dtype == np.float64 else np.complex64
    gi = np.asarray(np.fft.rfftn(grad, axes=dims, norm=_FORWARD[mode]), cdt)
    double = grad.shape[last] - gi.shape[last]
    if double > 0:
        index = (slice(None),) * last + (slice(1, 1 + double),)
        gi[index] = gi[index] * 2
    return (gi,)


def _c2r(x, dims, mode, last_size):
    a = x._a
    out = np.fft.irfftn(a, s=[a.shape[d] for d in dims[:-1]] + [last_size], axes=dims, norm=_INVERSE[mode])
    real = np.float64 if a.dtype == np.complex128 else np.float32
    return result(np.asarray(out, real), FftC2RBackward0, (x,), (), (tuple(dims), mode))


# ------------------------------------------------------------------ ATen's input handling
def _tensor(name, x):
    if type(x) is not Tensor:
        raise TypeError(f"fft_{name}(): argument 'input' (position 1) must be Tensor, not {pytype(x)}")
    return x


def _promote(x, require_complex):
    """ATen's promote_tensor_fft: integers to the default float; complex when required."""
    dt = x.dtype
    if dt.is_complex:
        return x
    if dt in (D.float16, D.bfloat16):
        raise RuntimeError(f"Unsupported dtype {legacy_scalar(dt)}")
    if not dt.is_floating_point:
        dt = D.DEFAULT_FLOAT[0]
    if require_complex:
        dt = D.COMPLEX_OF[dt]
    return x if dt is x.dtype else x.to(dt)


def _resize(x, dims, sizes):
    """ATen's resize_fft_input: slice what is too long, then zero-pad what is too short."""
    a_shape = x._a.shape
    for d, n in zip(dims, sizes):
        if n != -1 and a_shape[d] > n:
            x = getitem(x, (slice(None),) * d + (slice(0, n),))
    pads = [0] * (2 * x._a.ndim)
    must_pad = False
    for d, n in zip(dims, sizes):
        if n != -1 and x._a.shape[d] < n:
            pads[2 * (x._a.ndim - 1 - d) + 1] = n - x._a.shape[d]
            must_pad = True
    return _pad(x, tuple(pads), "constant", 0) if must_pad else x


def _check_n(n):
    if n is not None and n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _wrap(dim, ndim):
    """maybe_wrap_dim without wrap_scalar: a 0-d input has no dim to transform."""
    if ndim == 0 and type(dim) is int:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, ndim)


def _one_dim(x, n, dim):
    d = _wrap(dim, x._a.ndim)
    _check_n(n)
    return d


def _n_dims(x, s, dim, default=None):
    """ATen's canonicalize_fft_shape_and_dim_args: the dims and the sizes (-1: the input's)."""
    ndim = x._a.ndim
    if dim is not None:
        dims = [wrap_dim(d, ndim) for d in ((dim,) if isinstance(dim, int) else dim)]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
        if s is not None and len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
    elif s is not None:
        if len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions.")
        dims = list(range(ndim - len(s), ndim))
    elif default is not None:
        dims = [wrap_dim(d, ndim) for d in default]
    else:
        dims = list(range(ndim))
    if s is None:
        sizes = [x._a.shape[d] for d in dims]
    else:
        sizes = [x._a.shape[d] if n == -1 else n for n, d in zip(s, dims)]
        for n in sizes:
            _check_n(n)
    return dims, sizes


# ------------------------------------------------------------------ torch.fft.*
def _c2c_n(name, forward, default=None):
    def transform(input, s=None, dim=default, norm=None, *, out=None):
        x = _promote(_tensor(name, input), True)
        dims, sizes = _n_dims(x, s, dim)
        mode = _mode(norm, forward)
        return _c2c(_resize(x, dims, sizes), dims, mode, forward)
    transform.__name__ = name
    return transform


def _c2c_1(name, forward):
    def transform(input, n=None, dim=-1, norm=None, *, out=None):
        x = _tensor(name, input)
        if not x.dtype.is_complex:     # a real signal: ATen's r2c, both halves (conjugated for ifft)
            x = _promote(x, False)
            d = _one_dim(x, n, dim)
            spectrum = _r2c(_resize(x, [d], [-1 if n is None else n]), [d], _mode(norm, forward), onesided=False)
            return spectrum if forward else spectrum.conj()
        d = _one_dim(x, n, dim)
        mode = _mode(norm, forward)
        return _c2c(_resize(x, [d], [-1 if n is None else n]), [d], mode, forward)
    transform.__name__ = name
    return transform


def _real_input(name, x):
    x = _tensor(name, x)
    if x.dtype.is_complex:
        raise RuntimeError(f"{name} expects a real input tensor, but got {legacy_scalar(x.dtype)}")
    return _promote(x, False)


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    x = _real_input("rfft", input)
    d = _one_dim(x, n, dim)
    return _r2c(_resize(x, [d], [-1 if n is None else n]), [d], _mode(norm, True))


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    x = _real_input("ihfft", input)
    d = _one_dim(x, n, dim)
    return _r2c(_resize(x, [d], [-1 if n is None else n]), [d], _mode(norm, False)).conj()


def _rfftn(name, default=None):
    def transform(input, s=None, dim=default, norm=None, *, out=None):
        x = _real_input(name, input)
        dims, sizes = _n_dims(x, s, dim)
        return _r2c(_resize(x, dims, sizes), dims, _mode(norm, True))
    transform.__name__ = name
    return transform


def _c2r_1(name, forward):
    def transform(input, n=None, dim=-1, norm=None, *, out=None):
        x = _promote(_tensor(name, input), True)
        d = _wrap(dim, x._a.ndim)
        last = n if n is not None else 2 * (x._a.shape[d] - 1)
        if last < 1:
            raise RuntimeError(f"Invalid number of data points ({last}) specified")
        if n is not None:
            x = _resize(x, [d], [last // 2 + 1])
        if forward:
            x = x.conj()
        return _c2r(x, [d], _mode(norm, forward), last)
    transform.__name__ = name
    return transform


def _irfftn(name, default=None):
    def transform(input, s=None, dim=default, norm=None, *, out=None):
        x = _promote(_tensor(name, input), True)
        dims, sizes = _n_dims(x, s, dim)
        last = sizes[-1] if s is not None and s[-1] != -1 else 2 * (x._a.shape[dims[-1]] - 1)
        if last < 1:
            raise RuntimeError(f"Invalid number of data points ({last}) specified")
        sizes[-1] = last // 2 + 1
        return _c2r(_resize(x, dims, sizes), dims, _mode(norm, False), last)
    transform.__name__ = name
    return transform


def _freq_dtype(dtype):
    if dtype is None:
        return D.DEFAULT_FLOAT[0]
    if not isinstance(dtype, D.DType):
        raise TypeError(f"fftfreq(): argument 'dtype' must be torch.dtype, not {pytype(dtype)}")
    return dtype


def _scaled(values, scale, dt, requires_grad):
    """arange's values times 1 / (n * d), as ATen's result.mul_(1.0 / (n * d)) in the dtype."""
    arr = np.asarray(values, dt.np)
    out = arr * np.asarray(scale, dt.np) if dt.is_floating_point or dt.is_complex else (arr * scale).astype(dt.np)
    t = _new(np.asarray(out, dt.np))
    if requires_grad:
        t.requires_grad_(True)
    return t


def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False, out=None):
    dt = _freq_dtype(dtype)
    values = np.concatenate([np.arange((n + 1) // 2), np.arange(-(n // 2), 0)])
    return _scaled(values, 1.0 / (n * d), dt, requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False, out=None):
    dt = _freq_dtype(dtype)
    return _scaled(np.arange(n // 2 + 1), 1.0 / (n * d), dt, requires_grad)


def _shift(name, inverse):
    def shift(input, dim=None):
        x = _tensor(name, input)
        ndim = x._a.ndim
        dims = list(range(ndim)) if dim is None else [wrap_dim(d, ndim) for d in ((dim,) if isinstance(dim, int)
                                                                                    else dim)]
        shifts = [(x._a.shape[d] + 1) // 2 if inverse else x._a.shape[d] // 2 for d in dims]
        return x.roll(shifts, dims)
    shift.__name__ = name
    return shift


_TRANSFORMS = {
    "fft": _c2c_1("fft", True), "ifft": _c2c_1("ifft", False),
    "fft2": _c2c_n("fft2", True, (-2, -1)), "ifft2": _c2c_n("ifft2", False, (-2, -1)),
    "fftn": _c2c_n("fftn", True), "ifftn": _c2c_n("ifftn", False),
    "rfft": rfft, "irfft": _c2r_1("irfft", False),
    "rfft2": _rfftn("rfft2", (-2, -1)), "irfft2": _irfftn("irfft2", (-2, -1)),
    "rfftn": _rfftn("rfftn"), "irfftn": _irfftn("irfftn"),
    "hfft": _c2r_1("hfft", True), "ihfft": ihfft,
    "fftfreq": fftfreq, "rfftfreq": rfftfreq,
    "fftshift": _shift("fftshift", False), "ifftshift": _shift("ifftshift", True),
}
_RULES = {**dict.fromkeys(("fft", "ifft"), [FftC2CBackward0, FftR2CBackward0]),
          **dict.fromkeys(("fft2", "ifft2", "fftn", "ifftn"), [FftC2CBackward0]),
          **dict.fromkeys(("rfft", "rfft2", "rfftn", "ihfft"), [FftR2CBackward0]),
          **dict.fromkeys(("irfft", "irfft2", "irfftn", "hfft"), [FftC2RBackward0])}

# torch.fft.NAME, each declared as ATen's fft_NAME (no method, no torch.* function of its own)
FFT = {}
for _name, _fn in _TRANSFORMS.items():
    declare("fft_" + _name, _fn, method=False, function=False, rules=_RULES.get(_name, []))
    FFT[_name] = _fn
