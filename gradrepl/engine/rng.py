"""PyTorch's CPU random number generator, number for number.

PyTorch 2.13's CPU generator (``at::CPUGeneratorImpl``) is a plain mt19937 seeded
with ``init_genrand``; every distribution is a fixed transform of its 32-bit (or
paired, 64-bit) outputs. NumPy's ``MT19937`` bit generator is the same engine, so we
set its 624-word state the way PyTorch seeds it and pull raw words with
``random_raw``; the transforms below are vectorised copies of PyTorch's:

* ``aten/src/ATen/core/MT19937RNGEngine.h``: seeding and the state layout;
* ``aten/src/ATen/core/TransformationHelper.h`` and ``DistributionsHelper.h``:
  uniform floats from 24 (float32) or 53 (float64) bits, integer ranges by modulo,
  the scalar Box-Muller normal with its cached second sample, bernoulli;
* ``aten/src/ATen/native/cpu/DistributionTemplates.h``: ``normal_fill`` for 16 or
  more contiguous elements, in blocks of 16 (the last block re-drawn);
* ``aten/src/ATen/native/cpu/avx_mathfun.h``: the float32 ``log256_ps`` and
  ``sincos256_ps`` that block path uses.

Float32 normals of 16+ contiguous elements depend on the CPU kernel PyTorch picks
(``torch.backends.cpu.get_cpu_capability()``). PyTorch does not dispatch ``normal_``
to its AVX512 kernels, so x86 machines with AVX2 and FMA ("AVX2" or "AVX512") run
the AVX2 kernel; GCC contracts its multiply-adds into FMAs, and the emulation below
fuses exactly the same pairs. Other machines ("DEFAULT", also forced with
``ATEN_CPU_CAPABILITY=default``) run the scalar kernel, which calls glibc's
``logf``/``sinf``/``cosf``: those are ported below from glibc's double-precision
algorithms. Both paths are checked bitwise against PyTorch (tests/data/rng/).
Float64 uses glibc's ``log``/``sin``/``cos``/``log1p``, which Python's ``math``
module calls too. Other C libraries (macOS, Windows) are not reproduced.

Every function returns a NumPy array; the engine wraps it into a Tensor and checks
the arguments itself.
"""

from __future__ import annotations

import functools
import math
import os

import numpy as np

__all__ = ["Generator", "default_generator", "float32_normal_kernel"]

_N = 624  # mt19937 state words
_STATE_BYTES = 5056  # sizeof(CPUGeneratorImplState), what torch.get_rng_state() returns
_U64 = (1 << 64) - 1
_DEFAULT_SEED = 67280421310721  # c10::detail::default_rng_seed_val
_RANDPERM_LARGE_N = 0xFFFFFFFF // 20  # randperm_cpu's switch to 64-bit draws

_f32 = np.float32
_f64 = np.float64
_TWO_PI_F32 = _f32(2.0 * math.pi)
_TWO_PI = 2.0 * math.pi

# CPUGeneratorImplState, as PyTorch copies it into the state tensor.
_STATE_DTYPE = np.dtype(
    {
        "names": [
            "the_initial_seed", "left", "seeded", "next", "state",
            "normal_x", "normal_y", "normal_rho", "normal_is_valid",
            "next_float_normal_sample", "is_next_float_normal_sample_valid",
        ],
        "formats": [
            "<u8", "<i4", "<i4", "<u8", ("<u8", _N),
            "<f8", "<f8", "<f8", "<i4",
            "<f4", "u1",
        ],
        "offsets": [0, 8, 12, 16, 24, 5016, 5024, 5032, 5040, 5048, 5052],
        "itemsize": _STATE_BYTES,
    }
)


def _seeded_key(seed: int) -> np.ndarray:
    """mt19937 ``init_genrand``: the 624 state words PyTorch derives from a seed."""
    word = seed & 0xFFFFFFFF
    key = [word]
    for j in range(1, _N):
        word = (1812433253 * (word ^ (word >> 30)) + j) & 0xFFFFFFFF
        key.append(word)
    return np.array(key, dtype=np.uint32)


def _non_deterministic_seed() -> int:
    # c10::detail::getNonDeterministicRandom on the CPU: 64 bits of /dev/urandom.
    return int.from_bytes(os.urandom(8), "little")


# ---------------------------------------------------------------- uniform bits


def _unit_float32(words: np.ndarray) -> np.ndarray:
    """uniform_real<float>(random(), 0, 1): the low 24 bits over 2**24."""
    return (words & 0xFFFFFF).astype(_f32) * _f32(2.0**-24)


def _unit_float64(words64: np.ndarray) -> np.ndarray:
    """uniform_real<double>(random64(), 0, 1): the low 53 bits over 2**53."""
    return (words64 & np.uint64((1 << 53) - 1)).astype(_f64) * (2.0**-53)


# ------------------------------------------------- exact fused multiply-add
# PyTorch's kernels are compiled with FMA contraction (and NormalFill16 calls
# std::fma), so x * std + mean rounds once. NumPy has no fma: these are exact
# emulations with error-free transformations (Dekker's product, Knuth's sum) and
# rounding to odd (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums:
# proved algorithms using rounding to odd", IEEE TC 2008).


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    c = 134217729.0 * a  # 2**27 + 1
    high = c - (c - a)
    return high, a - high


def _two_product(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _round_to_odd(s, err):
    """The neighbour of s = RN(x) with an odd last bit when x = s + err is inexact."""
    bump = (err != 0) & ((s.view(np.int64) & 1) == 0) & np.isfinite(s)
    return np.where(bump, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def _fma64(a, b, c) -> np.ndarray:
    """float64 fma(a, b, c), correctly rounded, elementwise."""
    a, b, c = np.broadcast_arrays(np.asarray(a, _f64), np.asarray(b, _f64), np.asarray(c, _f64))
    high, low = _two_product(a, b)
    top, rest = _two_sum(c, high)
    return top + _round_to_odd(*_two_sum(rest, low))


def _fma32(a, b, c) -> np.ndarray:
    """float32 fma(a, b, c): a*b is exact in float64; the sum is rounded to odd in
    float64 and then to nearest float32, which is a single correct rounding."""
    product = np.asarray(a, _f64) * np.asarray(b, _f64)
    return _round_to_odd(*_two_sum(product, np.asarray(c, _f64))).astype(_f32)


# ---------------------------------------------------- float32 AVX2 normal path


_LOG_POLY = tuple(
    _f32(c)
    for c in (
        7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
        1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
        3.3333331174e-1,
    )
)


def _log256_ps(x: np.ndarray) -> np.ndarray:
    """avx_mathfun.h ``log256_ps`` (Cephes logf) for positive float32 ``x``."""
    x = np.maximum(x, _f32(1.17549435e-38))  # cut off denormals
    bits = x.view(np.uint32)
    e = ((bits >> 23).astype(np.int32) - 0x7F).astype(_f32) + _f32(1)
    x = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(_f32)  # mantissa in [0.5, 1)
    below = x < _f32(0.707106781186547524)
    x = (x - _f32(1)) + np.where(below, x, _f32(0))
    e = e - np.where(below, _f32(1), _f32(0))
    z = x * x
    y = np.full_like(x, _LOG_POLY[0])
    for coeff in _LOG_POLY[1:]:
        y = _fma32(y, x, coeff)
    y = y * x
    y = _fma32(y, z, e * _f32(-2.12194440e-4))
    y = _fma32(z, _f32(-0.5), y)
    return _fma32(e, _f32(0.693359375), x + y)


def _sincos256_ps(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """avx_mathfun.h ``sincos256_ps`` (Cephes sinf/cosf) for float32 ``x``."""
    sin_negative = np.signbit(x)
    x = np.abs(x)
    octant = ((x * _f32(1.27323954473516)).astype(np.int32) + 1) & ~1
    y = octant.astype(_f32)
    sin_negative ^= (octant & 4) != 0
    cos_negative = (~(octant - 2) & 4) != 0
    use_sin_poly = (octant & 2) == 0
    x = _fma32(y, _f32(-0.78515625), x)
    x = _fma32(y, _f32(-2.4187564849853515625e-4), x)
    x = _fma32(y, _f32(-3.77489497744594108e-8), x)
    z = x * x
    cos_poly = _fma32(_f32(2.443315711809948e-5), z, _f32(-1.388731625493765e-3))
    cos_poly = _fma32(cos_poly, z, _f32(4.166664568298827e-2)) * z
    cos_poly = _fma32(cos_poly, z, -(z * _f32(0.5))) + _f32(1)
    sin_poly = _fma32(_f32(-1.9515295891e-4), z, _f32(8.3321608736e-3))
    sin_poly = _fma32(sin_poly, z, _f32(-1.6666654611e-1)) * z
    sin_poly = _fma32(sin_poly, x, x)
    sin = np.where(use_sin_poly, sin_poly, cos_poly)
    cos = np.where(use_sin_poly, cos_poly, sin_poly)
    return np.where(sin_negative, -sin, sin), np.where(cos_negative, -cos, cos)


def _box_muller16_float32(blocks: np.ndarray, mean: np.float32, std: np.float32) -> np.ndarray:
    """NormalFill16<float> (AVX2) on rows of 16 uniforms."""
    radius = np.sqrt(_f32(-2) * _log256_ps(_f32(1) - blocks[:, :8]))
    sin, cos = _sincos256_ps(_TWO_PI_F32 * blocks[:, 8:])
    return np.concatenate(
        [_fma32(radius * cos, std, mean), _fma32(radius * sin, std, mean)], axis=1
    )


# ------------------------------------------ float32 scalar (DEFAULT) normal path
# glibc's logf (e_logf.c, e_logf_data.c) and sinf/cosf (s_sinf.c, s_cosf.c,
# s_sincosf.h, sincosf_poly.h, s_sincosf_data.c) compute in double and round once.

_hex = float.fromhex
_LOGF_TABLE = np.array([[_hex(a), _hex(b)] for a, b in (  # (invc, logc)
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"),
    ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"),
    ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"),
    ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"),
    ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"),
    ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"),
    ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"),
    ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"),
    ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"),
)])
_LOGF_LN2 = _hex("0x1.62e42fefa39efp-1")
_LOGF_POLY = (_hex("-0x1.00ea348b88334p-2"), _hex("0x1.5575b0be00b6ap-2"),
              _hex("-0x1.ffffef20a4123p-2"))
_SINF_POLY = (_hex("-0x1.555545995a603p-3"), _hex("0x1.1107605230bc4p-7"),
              _hex("-0x1.994eb3774cf24p-13"))
_COSF_POLY = np.array([_hex("0x1p0"), _hex("-0x1.ffffffd0c621cp-2"), _hex("0x1.55553e1068f19p-5"),
                       _hex("-0x1.6c087e89a359dp-10"), _hex("0x1.99343027bf8c3p-16")])
_HALF_PI_INV_2_24 = _hex("0x1.45F306DC9C883p+23")  # 2/pi * 2**24 (no TOINT_INTRINSICS)
_HALF_PI = _hex("0x1.921FB54442D18p0")


def _glibc_logf(x: np.ndarray) -> np.ndarray:
    """glibc ``logf`` for normal positive float32 ``x``."""
    ix = x.view(np.uint32)
    tmp = ix - np.uint32(0x3F330000)
    table = _LOGF_TABLE[(tmp >> 19) % 16]
    k = (tmp.view(np.int32) >> 23).astype(_f64)
    z = (ix - (tmp & np.uint32(0x1FF << 23))).view(_f32).astype(_f64)
    r = z * table[..., 0] - 1
    y0 = table[..., 1] + k * _LOGF_LN2
    r2 = r * r
    y = _LOGF_POLY[1] * r + _LOGF_POLY[2]
    y = _LOGF_POLY[0] * r2 + y
    y = y * r2 + (y0 + r)
    return np.where(ix == 0x3F800000, 0.0, y).astype(_f32)


def _glibc_sincosf(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """glibc ``sinf`` and ``cosf`` for float32 ``y`` in [0, 120)."""
    x = y.astype(_f64)
    top12 = (y.view(np.uint32) >> 20) & 0x7FF
    below_pi_4 = top12 < 0x3F4  # abstop12(pio4): no reduction
    quadrant = np.where(below_pi_4, 0, ((x * _HALF_PI_INV_2_24).astype(np.int32) + 0x800000) >> 24)
    x = np.where(below_pi_4, x, x - quadrant * _HALF_PI)
    x2 = x * x
    x = x * np.where((quadrant & 3) >> 1 ^ (quadrant & 1), -1.0, 1.0)  # sign[n & 3]
    x3 = x * x2
    sin_poly = (x + x3 * _SINF_POLY[0]) + (x3 * x2) * (_SINF_POLY[1] + x2 * _SINF_POLY[2])
    c = np.where(((quadrant & 2) != 0)[..., None], -_COSF_POLY, _COSF_POLY)
    x4 = x2 * x2
    cos_poly = (((c[..., 0] + x2 * c[..., 1]) + x4 * c[..., 2])
                + (x4 * x2) * (c[..., 3] + x2 * c[..., 4]))
    odd = (quadrant & 1) == 1
    sin = np.where(odd, cos_poly, sin_poly)
    cos = np.where(odd, sin_poly, cos_poly)
    tiny = top12 < 0x390  # abstop12(0x1p-12f): sinf(y) = y, cosf(y) = 1
    return np.where(tiny, y, sin).astype(_f32), np.where(tiny, 1.0, cos).astype(_f32)


def _box_muller16_float32_default(blocks: np.ndarray, mean: np.float32,
                                  std: np.float32) -> np.ndarray:
    """NormalFill16<float>, the scalar template: glibc float functions, std::fma."""
    radius = np.sqrt(_f32(-2) * _glibc_logf(_f32(1) - blocks[:, :8]))
    theta = (_TWO_PI * blocks[:, 8:].astype(_f64)).astype(_f32)
    sin, cos = _glibc_sincosf(theta)
    return np.concatenate(
        [_fma32(radius * cos, std, mean), _fma32(radius * sin, std, mean)], axis=1
    )


@functools.cache
def float32_normal_kernel() -> str:
    """The kernel PyTorch runs here for float32 normal_: "AVX2" or "DEFAULT".

    As at::native's compute_cpu_capability: ATEN_CPU_CAPABILITY first, then
    AVX2 + FMA on x86-64 (AVX512 machines run the AVX2 normal kernel too).
    """
    import platform  # only when the first float32 block of normals is drawn

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return "DEFAULT"
    forced = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    if forced == "default":
        return "DEFAULT"
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
            flags = next((line.split(":", 1)[1].split() for line in cpuinfo
                          if line.startswith("flags")), [])
    except OSError:
        return "AVX2"  # x86-64 without /proc: assume a machine of the last decade
    return "AVX2" if {"avx2", "fma"} <= set(flags) else "DEFAULT"


# --------------------------------------------------------- float64 block path


def _box_muller16_float64(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    """NormalFill16<double>: glibc log/cos/sin through Python's math module."""
    u1 = (1.0 - blocks[:, :8]).ravel().tolist()
    theta = (_TWO_PI * blocks[:, 8:]).ravel().tolist()
    radius = np.sqrt(-2.0 * np.array(list(map(math.log, u1)), _f64))
    n1 = radius * np.array(list(map(math.cos, theta)), _f64)
    n2 = radius * np.array(list(map(math.sin, theta)), _f64)
    if std != 1.0 or mean != 0.0:
        n1, n2 = _fma64(n1, std, mean), _fma64(n2, std, mean)
    return np.concatenate([n1.reshape(-1, 8), n2.reshape(-1, 8)], axis=1)


def _numel(shape) -> int:
    return math.prod(shape)


class Generator:
    """A ``torch.Generator`` on the CPU: mt19937 plus PyTorch's transforms."""

    __slots__ = ("_bitgen", "_initial_seed", "_next_when_exhausted", "_next_double_normal",
                 "_next_float_normal")

    def __init__(self, seed: int | None = None):
        """``Generator()`` starts from PyTorch's fixed default seed, as
        ``torch.Generator()`` does; ``default_generator`` is seeded at random."""
        self._bitgen = None     # made at the first draw: importing numpy.random costs start-up time
        self.manual_seed(_DEFAULT_SEED if seed is None else seed)

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"

    # ------------------------------------------------------------- seeding

    def _engine(self):
        """The mt19937 engine, seeded with the last manual_seed when first needed."""
        engine = self._bitgen
        if engine is None:
            engine = self._bitgen = np.random.MT19937()
            engine.state = {
                "bit_generator": "MT19937",
                "state": {"key": _seeded_key(self._initial_seed), "pos": _N},
            }
        return engine

    def manual_seed(self, seed: int) -> "Generator":
        seed = int(seed) & _U64  # negative seeds wrap as in PyTorch
        if self._bitgen is not None:
            self._bitgen.state = {
                "bit_generator": "MT19937",
                "state": {"key": _seeded_key(seed), "pos": _N},
            }
        self._initial_seed = seed
        self._next_when_exhausted = 0  # a fresh engine reports next = 0, left = 1
        self._next_double_normal: float | None = None
        # PyTorch's CPU kernels never cache a float sample; the slot exists in the
        # state bytes, so it is kept for get_state/set_state round trips.
        self._next_float_normal: float | None = None
        return self

    def seed(self) -> int:
        seed = _non_deterministic_seed()
        self.manual_seed(seed)
        return seed

    def initial_seed(self) -> int:
        return self._initial_seed

    # --------------------------------------------------------------- state

    def get_state(self) -> np.ndarray:
        """The 5056 bytes ``torch.get_rng_state()`` returns."""
        raw = self._engine().state["state"]
        pos = int(raw["pos"])
        record = np.zeros((), _STATE_DTYPE)
        record["the_initial_seed"] = self._initial_seed
        record["left"] = _N + 1 - pos
        record["seeded"] = 1
        record["next"] = pos if pos < _N else self._next_when_exhausted
        record["state"] = raw["key"]
        if self._next_double_normal is not None:
            record["normal_y"] = self._next_double_normal
            record["normal_is_valid"] = 1
        if self._next_float_normal is not None:
            record["next_float_normal_sample"] = self._next_float_normal
            record["is_next_float_normal_sample_valid"] = 1
        return np.frombuffer(record.tobytes(), np.uint8).copy()

    def set_state(self, state: np.ndarray) -> None:
        """Restore bytes from ``get_state`` (PyTorch's messages for bad input).

        PyTorch also accepts hand-edited states whose ``left`` and ``next``
        disagree; those are refused here as invalid.
        """
        data = np.ascontiguousarray(state, dtype=np.uint8).tobytes()
        if len(data) != _STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but "
                               f"found the input RNG state size to be {len(data)}")
        record = np.frombuffer(data, _STATE_DTYPE)[0]
        left, nxt = int(record["left"]), int(record["next"])
        # PyTorch twists when `left` runs out; NumPy when `pos` reaches 624.
        pos = _N + 1 - left
        if not (record["seeded"] and 0 < left <= _N and nxt <= _N) or (left > 1 and nxt != pos):
            raise RuntimeError("Invalid mt19937 state")
        self._engine().state = {
            "bit_generator": "MT19937",
            "state": {"key": record["state"].astype(np.uint32), "pos": pos},
        }
        self._initial_seed = int(record["the_initial_seed"])
        self._next_when_exhausted = nxt
        self._next_double_normal = float(record["normal_y"]) if record["normal_is_valid"] else None
        self._next_float_normal = (float(record["next_float_normal_sample"])
                                   if record["is_next_float_normal_sample_valid"] else None)

    # ----------------------------------------------------------- raw words

    def _random(self, n: int) -> np.ndarray:
        """n outputs of ``CPUGeneratorImpl::random()`` as uint64 holding 32 bits."""
        if n:
            self._next_when_exhausted = _N
        return self._engine().random_raw(n)

    def _random64(self, n: int) -> np.ndarray:
        """n outputs of ``random64()``: two words, the first one high."""
        words = self._random(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]

    def _unit(self, n: int, dtype) -> np.ndarray:
        if np.dtype(dtype) == np.float64:
            return _unit_float64(self._random64(n))
        return _unit_float32(self._random(n))

    # ------------------------------------------------------- distributions

    def rand(self, shape: tuple, dtype) -> np.ndarray:
        return self._unit(_numel(shape), dtype).reshape(shape)

    def uniform(self, shape, low, high, dtype) -> np.ndarray:
        dtype = np.dtype(dtype)
        low, high = dtype.type(low), dtype.type(high)
        x = self._unit(_numel(shape), dtype)
        # x * (to - from) + from, contracted into an FMA by the compiler.
        if dtype == np.float64:
            return _fma64(x, high - low, low).reshape(shape)
        return _fma32(x, high - low, low).reshape(shape)

    def randn(self, shape, dtype, contiguous: bool = True) -> np.ndarray:
        return self.normal(shape, 0.0, 1.0, dtype, contiguous)

    def normal(self, shape, mean, std, dtype, contiguous: bool = True) -> np.ndarray:
        """torch.normal: scalar mean/std fill ``shape``; array mean/std broadcast.

        ``contiguous=False`` is ``normal_`` on a non-contiguous view: PyTorch then
        draws element by element (never the 16-element blocks) and writes the values
        in memory order; the result here is in that order, C-ordered in ``shape``.
        """
        dtype = np.dtype(dtype)
        mean_is_array = isinstance(mean, np.ndarray)
        std_is_array = isinstance(std, np.ndarray)
        if not (mean_is_array or std_is_array):
            return self._normal_fill(tuple(shape), float(mean), float(std), dtype, contiguous)
        out_shape = np.broadcast_shapes(np.shape(mean), np.shape(std))
        if not std_is_array:
            # normal_out_impl(Tensor mean, double std): normal_(0, std) then add_(mean)
            return self._normal_fill(out_shape, 0.0, float(std), dtype) + mean.astype(dtype)
        sample = self._normal_fill(out_shape, 0.0, 1.0, dtype)
        # normal_(0, 1).mul_(std).add_(mean): two roundings in the output dtype
        return sample * std.astype(dtype) + np.asarray(mean, dtype)

    def _normal_fill(self, shape: tuple, mean: float, std: float, dtype,
                     contiguous: bool = True) -> np.ndarray:
        n = _numel(shape)
        if n < 16 or not contiguous:
            return self._normal_scalar(n, mean, std).astype(dtype).reshape(shape)
        float32 = dtype == np.float32
        uniform = self._unit(n, dtype)
        tail = n % 16
        blocks = uniform[: n - tail].reshape(-1, 16)
        if tail:  # the last 16 values are drawn again and recomputed
            blocks = np.concatenate([blocks, self._unit(16, dtype).reshape(1, 16)])
        if float32:
            box_muller = (_box_muller16_float32 if float32_normal_kernel() == "AVX2"
                          else _box_muller16_float32_default)
            normals = box_muller(blocks, _f32(mean), _f32(std)).ravel()
        else:
            normals = _box_muller16_float64(blocks, mean, std).ravel()
        if tail:
            normals = np.concatenate([normals[: n - 16], normals[-16:]])
        return normals.reshape(shape)

    def randint(self, low: int, high: int, shape, dtype) -> np.ndarray:
        """random_(low, high): a word modulo the range; 64-bit words from 2**28 on."""
        span = high - low
        n = _numel(shape)
        words = self._random64(n) if span >= 1 << 28 else self._random(n)
        # in place, then the same 64 bits as int64 (what astype(np.int64) would copy); a plain
        # int span takes the words' unsigned type (half the cost of building an np.uint64)
        values = np.remainder(words, span, out=words).view(np.int64)
        if low:
            values += np.int64(low)
        return values.astype(dtype, copy=False).reshape(shape)

    def randperm(self, n: int, dtype) -> np.ndarray:
        """randperm_cpu: Fisher-Yates from the front, z = random() % (n - i).

        From n = 2**32 // 20 on, PyTorch switches to the inside-out variant with
        z = random64() % (i + 1).
        """
        if n >= _RANDPERM_LARGE_N:
            perm = [0] * n
            picks = (self._random64(n) % np.arange(1, n + 1, dtype=np.uint64)).tolist()
            for i, z in enumerate(picks):
                perm[i] = perm[z]
                perm[z] = i
            return np.array(perm, dtype=dtype)
        perm = list(range(n))
        if n > 1:
            offsets = (self._random(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
            for i, z in enumerate(offsets):
                j = i + z
                perm[i], perm[j] = perm[j], perm[i]
        return np.array(perm, dtype=dtype)

    def bernoulli(self, p, shape, dtype) -> np.ndarray:
        """bernoulli_(p): a float p draws doubles; an array p draws in p's precision.

        For an array ``p`` the result has p's shape (``torch.bernoulli(p)``).
        """
        if isinstance(p, np.ndarray):
            if p.dtype == np.float64:
                uniform = _unit_float64(self._random64(p.size))
            else:
                uniform = _unit_float32(self._random(p.size))
            return (uniform.reshape(p.shape) < p).astype(dtype)
        n = _numel(shape)
        return (_unit_float64(self._random64(n)) < float(p)).astype(dtype).reshape(shape)

    def exponential(self, shape, lambd, dtype) -> np.ndarray:
        """exponential_(lambd): -1/lambd * log1p(-u) in double, u from 53 bits."""
        uniform = _unit_float64(self._random64(_numel(shape))).tolist()
        scale = -1.0 / lambd
        return (scale * np.array(list(map(math.log1p, [-u for u in uniform])), _f64)
                ).astype(dtype).reshape(shape)

    def multinomial(self, probs: np.ndarray, num_samples: int, replacement: bool) -> np.ndarray:
        """torch.multinomial on a 1-D or 2-D array of weights (int64 indices).

        Without replacement, or for a single sample, PyTorch takes the top
        ``num_samples`` of probs / q with q ~ Exp(1); with replacement it
        binary-searches the normalised cumulative sum for one double per sample.
        """
        rows = probs.reshape(-1, probs.shape[-1])
        out_shape = probs.shape[:-1] + (num_samples,)
        if not replacement or num_samples == 1:
            keys = rows / self.exponential(rows.shape, 1.0, rows.dtype)
            # top-k, largest first; equal keys keep the lower index first
            order = np.argsort(-keys, axis=-1, kind="stable")[:, :num_samples]
            return order.astype(np.int64).reshape(out_shape)
        result = np.empty((rows.shape[0], num_samples), np.int64)
        for i, row in enumerate(rows):
            cumulative = np.cumsum(row)  # sequential sum in the weights' dtype
            cumulative = cumulative / cumulative[-1]
            cumulative[-1] = 1
            uniform = _unit_float64(self._random64(num_samples))
            result[i] = np.searchsorted(cumulative.astype(_f64), uniform, side="left")
        return result.reshape(out_shape)

    def dropout_mask(self, shape, p, dtype) -> np.ndarray:
        """The factor F.dropout(x, p, training=True) multiplies x by.

        p == 0 and p == 1 draw nothing (PyTorch returns x, or x * 0).
        """
        dtype = np.dtype(dtype)
        if p == 0:
            return np.ones(shape, dtype)
        if p == 1:
            return np.zeros(shape, dtype)
        keep = dtype.type(1 - p)
        return self.bernoulli(1 - p, shape, dtype) / keep

    def cauchy(self, shape, median: float, sigma: float, dtype) -> np.ndarray:
        """cauchy_: cauchy_distribution<double> element by element, median + sigma * tan(pi * (u - 0.5))
        on a uniform_real<double> draw (53 bits), cast to the dtype."""
        u = _unit_float64(self._random64(_numel(shape))).tolist()
        values = [median + sigma * math.tan(math.pi * (x - 0.5)) for x in u]
        return np.array(values, np.float64).astype(dtype).reshape(shape)

    def standard_gamma(self, alpha: np.ndarray, in_double: bool = False) -> np.ndarray:
        """torch._standard_gamma on the CPU (_s_gamma_cpu): element by element in memory order,
        Marsaglia and Tsang's rejection sampler (ATen's sample_gamma) on uniform_real<double>
        and normal_distribution<double> draws; alpha's own float type for its few float steps,
        double for the rest; at least the dtype's smallest normal number. ``in_double``:
        _s_dirichlet_cpu's gammas, sampled from alpha cast to double, kept in double."""
        dtype = np.dtype(np.float64 if in_double else alpha.dtype)
        ftype = np.float32 if dtype == np.float32 else np.float64
        one, third = ftype(1.0), ftype(np.float32(1.0) / np.float32(3.0))
        tiny = float(np.finfo(dtype).tiny)
        out = np.empty(alpha.size, dtype)
        for i, a in enumerate(np.ascontiguousarray(alpha).ravel()):
            a = ftype(a)
            scale = 1.0
            if a < 1:
                if a == 0:
                    out[i] = max(tiny, 0.0)
                    continue
                u = float(_unit_float64(self._random64(1))[0])
                scale *= math.pow(1 - u, float(one / a))
                a = ftype(a + one)
            d = float(ftype(a - third))
            c = 1.0 / math.sqrt(9.0 * d)
            while True:
                while True:
                    x = float(self._normal_scalar(1, 0.0, 1.0)[0])
                    y = 1.0 + c * x
                    if y > 0:
                        break
                v = y * y * y
                u = 1 - float(_unit_float64(self._random64(1))[0])
                xx = x * x
                if u < 1.0 - float(np.float32(0.0331)) * xx * xx:
                    break
                if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
                    break
            out[i] = max(tiny, float(dtype.type(scale * d * v)))
        return out.reshape(alpha.shape)

    def dirichlet(self, alpha: np.ndarray, sum_last) -> np.ndarray:
        """torch._sample_dirichlet on the CPU: double gammas, divided by their sum over the last
        dimension (``sum_last``, PyTorch's float64 reduction), cast to alpha's dtype and kept in
        [smallest normal, the float before 1]."""
        gamma = self.standard_gamma(alpha, in_double=True)
        dtype = np.dtype(alpha.dtype)
        ratio = (gamma / sum_last(gamma)).astype(dtype)
        top = np.nextafter(dtype.type(1), dtype.type(0))
        return np.minimum(top, np.maximum(dtype.type(np.finfo(dtype).tiny), ratio))

    def _normal_scalar(self, n: int, mean: float, std: float) -> np.ndarray:
        """normal_distribution<double> element by element, vectorised.

        Each Box-Muller pair gives r*cos for one element and caches r*sin for the
        next; the cache outlives the call (and is part of get_state).
        """
        head = []
        if n and self._next_double_normal is not None:
            head, self._next_double_normal = [self._next_double_normal], None
        pairs = (n - len(head) + 1) // 2
        uniform = _unit_float64(self._random64(2 * pairs)).reshape(pairs, 2)
        radius = np.sqrt(-2.0 * np.array(list(map(math.log1p, (-uniform[:, 1]).tolist())), _f64))
        theta = (_TWO_PI * uniform[:, 0]).tolist()
        samples = np.empty((pairs, 2), _f64)
        samples[:, 0] = radius * np.array(list(map(math.cos, theta)), _f64)
        samples[:, 1] = radius * np.array(list(map(math.sin, theta)), _f64)
        samples = np.concatenate([np.array(head, _f64), samples.ravel()])
        if len(samples) > n:
            self._next_double_normal = float(samples[-1])
            samples = samples[:n]
        return _fma64(samples, std, mean)  # val * std + mean, contracted


# PyTorch seeds its default CPU generator from /dev/urandom at start-up.
def __getattr__(name):
    """`default_generator` is made on first use: making it loads numpy.random (~20 ms), which
    a program that draws no random numbers never needs."""
    if name == "default_generator":
        generator = globals()["default_generator"] = Generator(_non_deterministic_seed())
        return generator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
