"""Process-wide state that one test may change is put back after it, so that no test
depends on which tests ran before it in the same pytest process."""
import os
import random
import sys

import numpy as np
import pytest
from hypothesis import settings

# The golden data were recorded with PyTorch on an AVX512 machine (engine/cpu.py): the tests
# emulate that capability's kernels whatever this machine has; AVX2 goldens switch it themselves.
os.environ["GRADREPL_CPU_CAPABILITY"] = "avx512"

from gradrepl import limits
from gradrepl.engine import autograd, cpu, dtypes, printing, spellings, util

# Property tests run the same examples on every run (one CI run must not depend on luck) and
# have no per-example deadline (a loaded machine is slow, not wrong). Their own settings win.
# GRADREPL_HYPOTHESIS=explore draws fresh random examples, to look for new cases.
settings.register_profile("ci", deadline=None, derandomize=True, database=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("GRADREPL_HYPOTHESIS", "ci"))


@pytest.fixture(autouse=True)
def restore_process_state():
    recursion = sys.getrecursionlimit()     # sessions raise it; it is never lowered again
    saved_limits = limits.LIMITS.copy()
    flags = dict(limits.FLAGS)
    print_opts = printing.PRINT_OPTS.as_dict()
    grad, default_float = autograd.GRAD[0], dtypes.DEFAULT_FLOAT[0]
    py_random, np_random = random.getstate(), np.random.get_state()
    warning_sink = util._WARN[0]    # the session that ran code last owns the engine's warnings
    threads = spellings.SETTINGS["threads"]   # torch.set_num_threads: MKL's threads decide a product's bits
    capability = cpu.capability()             # tests emulating another recording's CPU capability
    yield
    if cpu.capability() != capability:
        cpu.set_capability(capability)
    if spellings.SETTINGS["threads"] != threads:
        spellings.set_num_threads(threads)
    util._WARN[0] = warning_sink
    sys.setrecursionlimit(recursion)
    for name in limits.Limits.FIELDS:
        setattr(limits.LIMITS, name, getattr(saved_limits, name))
    limits.FLAGS.clear()
    limits.FLAGS.update(flags)
    for name, value in print_opts.items():
        setattr(printing.PRINT_OPTS, name, value)
    autograd.GRAD[0], dtypes.DEFAULT_FLOAT[0] = grad, default_float
    printing.set_default_float(default_float.np)     # tensors of the default dtypes print without it
    random.setstate(py_random)
    np.random.set_state(np_random)
