"""Full sums and means have PyTorch's last bit (golden values recorded from PyTorch 2.13 by
scripts/record_summation_golden.py; inputs regenerated here from the same seeds)."""
import hashlib
import json
import pathlib

import numpy as np
import pytest

from gradrepl.engine.functions import tensor
from gradrepl.engine.summation import THREADS
from gradrepl.engine.tensor import wrap

DATA = json.loads((pathlib.Path(__file__).parent.parent / "data" / "summation.json").read_text())


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: f"{c['dtype']}-{c['n']}-{c['seed']}")
def test_sum_and_mean_match_pytorch_bit_for_bit(case):
    n = case["n"]
    x = (np.random.default_rng(case["seed"] * 100_000 + n).standard_normal(n) * 10).astype(case["dtype"])
    t = wrap(x)
    assert t.sum().item() == case["sum"]
    assert t.mean().item() == case["mean"]
    if case["sum_2d_t"] is not None:
        m = wrap(np.ascontiguousarray(x[: (n // 2) * 2].reshape(2, -1)))
        assert m.t().sum().item() == case["sum_2d_t"]   # a transposed view sums in memory order


def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


@pytest.fixture
def threads():
    saved = THREADS["n"]
    yield THREADS
    THREADS["n"] = saved


@pytest.mark.parametrize("case", DATA["large"],
                         ids=lambda c: f"{c['threads']}t-{c['dtype']}-{'x'.join(map(str, c['shape']))}-{c['dims']}")
def test_large_sums_match_pytorch_on_its_thread_count(case, threads):
    """Full sums from 32768 elements on are split across PyTorch's threads (the result depends
    on their number); reductions over a dim are split by output elements (it does not)."""
    threads["n"] = case["threads"]
    n = int(np.prod(case["shape"]))
    x = (np.random.default_rng(n).standard_normal(n) * 10 + 1).astype(case["dtype"]).reshape(case["shape"])
    t = wrap(x)
    dims = case["dims"]
    if dims is None:
        assert t.sum().item() == case["sum"]
        assert t.mean().item() == case["mean"]
    else:
        assert digest(np.array(t.sum(dims).tolist(), case["dtype"])) == case["sum"]
        assert digest(np.array(t.mean(dims).tolist(), case["dtype"])) == case["mean"]
    if case["strided"] is not None:
        assert t[::3].sum().item() == case["strided"]


def test_sum_keeps_its_autograd_node():
    x = tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = x.sum()
    assert s.grad_fn.name() == "SumBackward0"
    s.backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]
