"""The optional C kernels (gradrepl/engine/_kernels.c): without a C compiler the install
goes on and gradrepl uses the NumPy code in engine/kernels.py, with the same bits."""
import sys

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "gradrepl.engine._kernels", ["gradrepl/engine/_kernels.c"], optional=True,
    # nothing fused but the fmaf calls the kernels make (PyTorch's rounding, step by step)
    extra_compile_args=["-O2", "-ffp-contract=off", "-fno-fast-math"],
    # linked to libm by name, so that its calls bind to the current symbol versions, as
    # PyTorch's do (unversioned, logf & co. would bind to glibc's old SVID wrappers)
    libraries=[] if sys.platform == "win32" else ["m"],
)])
