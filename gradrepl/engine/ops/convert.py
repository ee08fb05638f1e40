"""Conversions: dtype changes (to, float, long, ...), device no-ops, detach as torch.detach."""
from gradrepl.engine import devices, metadevice
from gradrepl.engine import dtypes as D
from gradrepl.engine.devices import Device
from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import Tensor
from gradrepl.engine.ops.cplx import COMPLEX_TO_REAL
from gradrepl.engine.util import got_args, pytype, warn


@rule("ToCopyBackward0", ("self",), ("grad.to(self.dtype)",), ctx=("dtype",))
def ToCopyBackward0(grad, xp, dtype):
    return (xp.cast(grad, dtype),)


def convert(t, dtype):
    if dtype is t.dtype:
        return t
    a = t._a
    if a.dtype.kind == "c" and not dtype.is_complex:
        warn("UserWarning", COMPLEX_TO_REAL)
        a = a.real
    out = a.astype(dtype.np)
    return result(out, ToCopyBackward0, (t,) if dtype.is_floating_point or dtype.is_complex else (), (), t.dtype)


@declare("to", function=False, rules=[ToCopyBackward0])
def to(self, *args, dtype=None, device=None, non_blocking=False, copy=False, memory_format=None, **kwargs):
    """x.to(dtype), x.to(device[, dtype]), x.to(other): only the CPU exists (devices.check)."""
    if kwargs:     # x.to(requires_grad=True) in the former-torchies autograd tutorial
        raise TypeError(f"to() received an invalid combination of arguments - got ({got_args(args, kwargs)}), "
                        "but expected one of:")
    target = None
    for a in args:
        if isinstance(a, D.DType):
            dtype = a
        elif type(a) is Tensor:
            dtype = a.dtype
            target = a.device
        elif isinstance(a, (str, Device)) or (isinstance(a, int) and not isinstance(a, bool)):
            devices.check(a if not isinstance(a, int) else devices.device(a))
            target = devices.device(a) if not isinstance(a, int) else None
        elif a is not None:
            raise TypeError(f"to() received an invalid combination of arguments - got ({pytype(a)}), but expected one "
                            "of:")
    devices.check(device)
    if device is not None:
        target = devices.device(device)
    if target is not None and (target.type == "meta") != self.is_meta:
        if self.is_meta:
            raise NotImplementedError(metadevice.NO_DATA)
        source = self if dtype is None or dtype is self.dtype else convert(self, dtype)
        return metadevice.to_meta(source, result, ToCopyBackward0)
    if dtype is None or dtype is self.dtype:
        return self.clone() if copy else self
    return convert(self, dtype)


@declare("cuda", function=False, rules=[])
def cuda(self, device=None, non_blocking=False, memory_format=None):
    check_cuda_target(device)
    raise AssertionError(devices.NO_CUDA)


def check_cuda_target(device):
    """What `cuda(device)` raises on a CPU-only PyTorch before its `not compiled with CUDA`:
    an index asks the (absent) accelerator, another device type is refused."""
    if device is None:
        return
    if isinstance(device, bool) or not isinstance(device, (int, str, Device)):
        raise TypeError(f"cuda(): argument 'device' (position 1) must be torch.device, not {pytype(device)}")
    if isinstance(device, int):
        if device < 0:
            raise RuntimeError("Device index must not be negative")
        raise RuntimeError(devices.NO_ACCELERATOR)
    if devices.device(device).type != "cuda":
        raise RuntimeError("Invalid device, must be cuda device")


@declare("get_device", function=False, rules=[], returns_tensor=False)
def get_device(self):
    return -1


def _to_dtype(name, dtype):
    def method(self):
        return convert(self, dtype)
    method.__name__ = name
    declare(name, method, function=False, rules=[ToCopyBackward0])


for _name, _dtype in (("float", D.float32), ("double", D.float64), ("half", D.float16), ("bfloat16", D.bfloat16), ("long", D.int64),
                      ("int", D.int32), ("short", D.int16), ("char", D.int8), ("byte", D.uint8), ("bool", D.bool_)):
    _to_dtype(_name, _dtype)


@declare("type_as", function=False, rules=[ToCopyBackward0])
def type_as(self, other):
    if type(other) is not Tensor:
        raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not {pytype(other)}")
    return self.to(other.dtype)


@declare("type", function=False, rules=[ToCopyBackward0], returns_tensor=False)
def type_(self, dtype=None, non_blocking=False):
    if dtype is None:
        return "torch." + self.dtype.legacy
    if getattr(dtype, "cuda", False) or (type(dtype) is str and dtype.startswith("torch.cuda.")):
        raise RuntimeError(devices.NO_CUDA_LIBRARY)
    if type(dtype) is str:
        names = {"torch." + d.legacy: d for d in D.TORCH_NAMES.values() if isinstance(d, D.DType) and d.legacy}
        if dtype not in names:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = names[dtype]
    dtype = getattr(dtype, "tensor_dtype", dtype)   # torch.LongTensor & co. (spellings.LegacyTensorType)
    return self.to(dtype)


@declare("cpu", function=False, rules=[])
def cpu(self):
    if self.is_meta:
        raise NotImplementedError(metadevice.NO_DATA)
    return self


declare("detach", Tensor.detach, method=False, rules=[])
