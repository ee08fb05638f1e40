"""F.dropout of a transposed view draws its mask in memory order, as PyTorch's empty_like +
bernoulli_ do (recorded cases: tests/data/nn_cases/dropout_memory_order.*): dropping out a
permuted view equals permuting the dropout of the contiguous tensor, under the same seed."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.engine import api
from gradrepl.engine.ops.loss import memory_order

T = api.TORCH
F = T["nn"]["functional"]


@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=2, max_size=4), data=st.data(), seed=st.integers(0, 2 ** 31))
def test_a_permuted_view_draws_in_memory_order(shape, data, seed):
    perm = data.draw(st.permutations(range(len(shape))))
    x = T["arange"](float(np.prod(shape))).view(*shape)
    T["manual_seed"](seed)
    want = F["dropout"](x, 0.5).permute(*perm)
    T["manual_seed"](seed)
    got = F["dropout"](x.permute(*perm), 0.5)
    assert got.tolist() == want.tolist()


def test_memory_order_only_for_dense_permutations():
    a = np.zeros((3, 4, 5))
    assert memory_order(a) is None
    assert memory_order(a.transpose(2, 0, 1)) == [1, 2, 0]
    assert memory_order(a[:, ::2]) is None          # a strided slice: a fresh contiguous mask
