"""Which of PyTorch's CPU kernels this machine runs: ATen's CPU capability.

PyTorch 2.13 compiles its vectorised kernels once per instruction set on x86-64 and picks
one set when it starts (aten/src/ATen/native/DispatchStub.cpp, compute_cpu_capability):
AVX512 when the processor has AVX512 VL, BW and DQ and FMA3, else AVX2; the environment
variable ATEN_CPU_CAPABILITY (`avx2`, `avx512`, `default`) overrides the choice.
Vectorized<float> holds 16 lanes under AVX512 and 8 under AVX2. The lanes decide where a
tensor's vectorised body ends and its scalar tail (libm) begins, and the order of the
reductions inside vectors, so a float32 result's last bits depend on the capability.
gradrepl emulates the kernels of the capability PyTorch picks on the same machine;
GRADREPL_CPU_CAPABILITY, then ATEN_CPU_CAPABILITY, overrides it (the tests pin the
capability their golden data were recorded with).
"""
import os

LANES = {"avx512": 16, "avx2": 8, "default": 8}
ENV = ("GRADREPL_CPU_CAPABILITY", "ATEN_CPU_CAPABILITY")


def _has(features, *names):
    return all(features.get(name) for name in names)


def detect():
    """The capability PyTorch would pick here: the environment's, else the processor's."""
    for var in ENV:
        value = os.environ.get(var, "").strip().lower()
        if value in LANES:
            return value
    try:    # NumPy reads the processor's features with CPUID, as PyTorch's cpuinfo does
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:     # NumPy 1.x
        from numpy.core._multiarray_umath import __cpu_features__ as features
    if _has(features, "AVX512VL", "AVX512BW", "AVX512DQ", "FMA3"):
        return "avx512"
    return "avx2"


CAPABILITY = [detect()]
_FOLLOWERS = []     # modules keeping a value derived from the capability (kernels.LANES)


def capability():
    return CAPABILITY[0]


def follow(update):
    """Call update(name) now and whenever the capability changes."""
    _FOLLOWERS.append(update)
    update(CAPABILITY[0])


def set_capability(name):
    """Emulate another capability's kernels from now on (tests, and golden recorders)."""
    CAPABILITY[0] = name
    for update in _FOLLOWERS:
        update(name)
