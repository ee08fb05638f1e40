"""DataLoader's sampler / batch_sampler rules and IterableDataset streams (PyTorch's printed
results for samplers are in tests/data/nn_cases/data_samplers.*)."""
import pytest

from gradrepl import data
from gradrepl.engine import api

torch = api.TORCH


def _ds(n=10):
    return data.TensorDataset(torch["arange"](float(n)))


@pytest.mark.parametrize("kwargs,message", [
    ({"sampler": [0, 1], "shuffle": True}, "sampler option is mutually exclusive with shuffle"),
    ({"batch_sampler": [[0, 1]], "batch_size": 2},
     "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"),
    ({"batch_sampler": [[0, 1]], "drop_last": True},
     "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"),
    ({"batch_size": None, "drop_last": True},
     "batch_size=None option disables auto-batching and is mutually exclusive with drop_last"),
])
def test_dataloader_argument_rules(kwargs, message):
    with pytest.raises(ValueError, match="^" + message.replace("=", "=") + "$"):
        data.DataLoader(_ds(), **kwargs)


def test_a_batch_sampler_given_as_a_list_of_index_lists():
    dl = data.DataLoader(_ds(), batch_sampler=[[3, 1], [0]])
    assert dl.batch_size is None and len(dl) == 2
    assert [b[0].tolist() for b in dl] == [[3.0, 1.0], [0.0]]


class Count(data.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter([(torch["tensor"](float(i)),) for i in range(self.n)])

    def __len__(self):
        return self.n


def test_iterable_dataset_streams_in_batches():
    dl = data.DataLoader(Count(7), batch_size=3)
    assert [b[0].tolist() for b in dl] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0]]
    assert len(dl) == 3
    dl = data.DataLoader(Count(7), batch_size=3, drop_last=True)
    assert [b[0].tolist() for b in dl] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and len(dl) == 2
    assert [b[0].item() for b in data.DataLoader(Count(2), batch_size=None)] == [0.0, 1.0]
    chained = Count(2) + Count(1)
    assert [x[0].item() for x in chained] == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="expected unspecified shuffle option, but got shuffle=True"):
        data.DataLoader(Count(2), shuffle=True)


def test_batch_sampler_is_sized_before_it_builds_a_batch():
    from gradrepl.errors import BudgetExceeded
    from gradrepl.limits import LIMITS
    old = LIMITS.max_items
    LIMITS.max_items = 100
    try:
        with pytest.raises(BudgetExceeded):
            next(iter(data.BatchSampler(range(10 ** 6), 10 ** 6, True)))
    finally:
        LIMITS.max_items = old
