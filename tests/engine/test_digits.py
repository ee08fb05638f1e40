"""Last digits as PyTorch's CPU kernels compute them (tests/data/digits.json, recorded from
PyTorch 2.13 by scripts/record_digits_golden.py; inputs regenerated from the same seeds):
sums and means over dims, float32 linspace, the special-cased integer powers, and the
backward's sum of a broadcast gradient."""
import json
import pathlib

import numpy as np
import pytest

from gradrepl.engine.creation import linspace
from gradrepl.engine.tensor import wrap

DATA = json.loads((pathlib.Path(__file__).parent.parent / "data" / "digits.json").read_text())


def data(shape, seed):
    return np.asarray(np.random.default_rng(seed).standard_normal(shape) * 10, np.float32)


@pytest.mark.parametrize("case", DATA["dims"], ids=lambda c: f"{c['shape']}-{c['dims']}")
def test_sum_and_mean_over_dims(case):
    t = wrap(data(tuple(case["shape"]), case["seed"]))
    assert t.sum(case["dims"]).flatten().tolist() == case["sum"]
    assert t.mean(case["dims"]).flatten().tolist() == case["mean"]


@pytest.mark.parametrize("case", DATA["linspace"], ids=lambda c: str(c["args"]))
def test_linspace_float32(case):
    assert linspace(*case["args"]).tolist() == case["values"]


@pytest.mark.parametrize("case", DATA["powers"], ids=lambda c: str(c["exponent"]))
def test_powers(case):
    x = wrap(np.abs(data((1000,), case["seed"])) / np.float32(3))
    got = (x ** case["exponent"]).tolist()
    if case["exponent"] in (0.5, 4, 2.5):   # vectorised sqrt and pow (MKL, Sleef): a few last bits differ
        assert np.mean(np.array(got) == np.array(case["values"])) > 0.75
    else:
        assert got == case["values"]


@pytest.mark.parametrize("case", DATA["sum_to"], ids=lambda c: f"{c['shape']}->{c['target']}")
def test_backward_sums_a_broadcast_gradient_in_pytorchs_order(case):
    x = wrap(data(tuple(case["target"]), case["seeds"][0])).requires_grad_()
    g = wrap(data(tuple(case["shape"]), case["seeds"][1]))
    (x * g).sum().backward()
    assert x.grad.flatten().tolist() == case["grad"]
