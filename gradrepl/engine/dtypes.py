"""PyTorch dtypes over NumPy dtypes, and PyTorch's type-promotion rules.

bfloat16 is ml_dtypes' NumPy dtype. Its `dtype.kind` is "V", not "f": the engine's
floating-point tests read `dtype.kind in "fV"` (no other "V" dtype is ever made).
ml_dtypes is imported when `torch.bfloat16.np` is first read (a twentieth of the start-up;
no bfloat16 array can exist before that)."""
import numpy as np


class DType:
    """A torch.dtype stand-in: `torch.float32` prints as PyTorch prints it."""

    __slots__ = ("name", "np", "is_floating_point", "is_complex", "is_signed", "itemsize", "_rank", "_kind",
                 "legacy")

    def __init__(self, name, np_dtype, kind, rank, legacy, itemsize=None):
        self.name = name
        if np_dtype is not None:     # None: filled in by __getattr__ when first read
            self.np = np.dtype(np_dtype)
            itemsize = self.np.itemsize
        self._kind = kind            # 0 bool, 1 integer, 2 floating, 3 complex (PyTorch's promotion categories)
        self._rank = rank
        self.is_floating_point = kind == 2
        self.is_complex = kind == 3
        self.is_signed = kind >= 2 or (np_dtype is not None and self.np.kind == "i")
        self.itemsize = itemsize
        self.legacy = legacy         # 'FloatTensor' etc., used in some PyTorch messages

    def tensor_type_string(self):
        """How ATen names a CPU tensor's type in messages such as expand's: `torch.FloatTensor`, but
        `CPUBoolType` / `CPUBFloat16Type` for the dtypes without a legacy tensor type."""
        if self.name in ("bool", "bfloat16"):
            return "CPU" + self.legacy[:-len("Tensor")] + "Type"
        return "torch." + self.legacy

    def __getattr__(self, attr):
        """Only for an unset slot: bfloat16's NumPy dtype, from ml_dtypes on first use."""
        if attr != "np" or self.name != "bfloat16":
            raise AttributeError(attr)
        import ml_dtypes
        self.np = np_dtype = np.dtype(ml_dtypes.bfloat16)
        _BY_NP[np_dtype] = self
        return np_dtype

    def __repr__(self):
        return "torch." + self.name

    __str__ = __repr__

    def __reduce__(self):
        return (by_name, (self.name,))


bool_ = DType("bool", np.bool_, 0, 0, "BoolTensor")
uint8 = DType("uint8", np.uint8, 1, 1, "ByteTensor")
int8 = DType("int8", np.int8, 1, 2, "CharTensor")
int16 = DType("int16", np.int16, 1, 3, "ShortTensor")
int32 = DType("int32", np.int32, 1, 4, "IntTensor")
int64 = DType("int64", np.int64, 1, 5, "LongTensor")
float16 = DType("float16", np.float16, 2, 6, "HalfTensor")
bfloat16 = DType("bfloat16", None, 2, 6, "BFloat16Tensor", itemsize=2)
float32 = DType("float32", np.float32, 2, 7, "FloatTensor")
float64 = DType("float64", np.float64, 2, 8, "DoubleTensor")
complex64 = DType("complex64", np.complex64, 3, 7, "ComplexFloatTensor")
complex128 = DType("complex128", np.complex128, 3, 8, "ComplexDoubleTensor")

ALL = (bool_, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128)
COMPLEX_OF = {float32: complex64, float64: complex128}   # the complex dtype of a float's precision
REAL_OF = {complex64: float32, complex128: float64}
REDUCED = (float16, bfloat16)   # PyTorch computes on these in float32 and rounds the result
_BY_NP = {d.np: d for d in ALL if d is not bfloat16}   # bfloat16's: see DType.__getattr__
_BY_NAME = {d.name: d for d in ALL}

# Names under which torch exposes the dtypes.
TORCH_NAMES = {
    "bool": bool_, "uint8": uint8, "int8": int8, "int16": int16, "short": int16,
    "int32": int32, "int": int32, "int64": int64, "long": int64,
    "float16": float16, "half": float16, "bfloat16": bfloat16, "float32": float32, "float": float32,
    "float64": float64, "double": float64,
    "complex64": complex64, "cfloat": complex64, "complex128": complex128, "cdouble": complex128,
}

DEFAULT_FLOAT = [float32]


def by_name(name):
    return _BY_NAME[name]


def of(arr):
    """The DType of a NumPy array."""
    return _BY_NP[arr.dtype]


def from_np(np_dtype):
    return _BY_NP[np.dtype(np_dtype)]


def default_complex():
    """The complex dtype of the default float dtype (complex64 unless float64 is the default)."""
    return complex128 if DEFAULT_FLOAT[0] is float64 else complex64


def promote_types(a: DType, b: DType) -> DType:
    if a is b:
        return a
    if a._kind == 3 or b._kind == 3:   # complex with anything: complex of the wider precision
        return complex128 if max(a._rank, b._rank) >= 8 else complex64
    if a._kind != b._kind:
        return a if a._kind > b._kind else b
    if a._rank == b._rank == 6:      # float16 with bfloat16: neither holds the other
        return float32
    if a._kind == 1 and (a is uint8 or b is uint8):
        other = b if a is uint8 else a
        # uint8 with a signed int: the next signed type that holds both
        return int16 if other in (int8,) else other
    return a if a._rank > b._rank else b


def scalar_kind(value) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return 1
    if isinstance(value, complex):
        return 3
    return 2


def result_type(operands) -> DType:
    """PyTorch's result_type over tensors and Python scalars.

    Priority: tensors with dimensions, then zero-dim tensors, then Python numbers;
    a lower-priority operand only matters when its category (bool < int < float) is higher.
    """
    dim_t = zero_t = None
    scal_kind = -1
    for op in operands:
        d = getattr(op, "dtype", None)
        if d is None:
            scal_kind = max(scal_kind, scalar_kind(op))
        elif op.ndim:
            dim_t = d if dim_t is None else promote_types(dim_t, d)
        else:
            zero_t = d if zero_t is None else promote_types(zero_t, d)
    result = dim_t
    if zero_t is not None:
        if result is not None and zero_t._kind == 3 and result._kind == 2:   # the float's precision kept
            result = complex128 if result is float64 else complex64
        elif result is None or zero_t._kind > result._kind:
            result = zero_t
    if scal_kind >= 0 and (result is None or scal_kind > result._kind):
        if scal_kind == 3 and result is not None and result._kind == 2:
            return complex128 if result is float64 else complex64   # float16 + 1j (chalf): refused later
        result = (bool_, int64, DEFAULT_FLOAT[0], default_complex())[scal_kind]
    return result
