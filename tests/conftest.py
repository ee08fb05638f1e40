"""Process-wide state that one test may change is put back after it, so that no test
depends on which tests ran before it in the same pytest process."""
import dataclasses
import random
import sys

import numpy as np
import pytest

from gradrepl import limits
from gradrepl.engine import autograd, dtypes, printing, util


@pytest.fixture(autouse=True)
def restore_process_state():
    recursion = sys.getrecursionlimit()     # sessions raise it; it is never lowered again
    saved_limits = dataclasses.replace(limits.LIMITS)
    flags = dict(limits.FLAGS)
    print_opts = dataclasses.replace(printing.PRINT_OPTS)
    grad, default_float = autograd.GRAD[0], dtypes.DEFAULT_FLOAT[0]
    py_random, np_random = random.getstate(), np.random.get_state()
    warning_sink = util._WARN[0]    # the session that ran code last owns the engine's warnings
    yield
    util._WARN[0] = warning_sink
    sys.setrecursionlimit(recursion)
    for f in dataclasses.fields(limits.Limits):
        setattr(limits.LIMITS, f.name, getattr(saved_limits, f.name))
    limits.FLAGS.clear()
    limits.FLAGS.update(flags)
    for f in dataclasses.fields(print_opts):
        setattr(printing.PRINT_OPTS, f.name, getattr(print_opts, f.name))
    autograd.GRAD[0], dtypes.DEFAULT_FLOAT[0] = grad, default_float
    random.setstate(py_random)
    np.random.set_state(np_random)
