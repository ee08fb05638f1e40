"""torch.utils.data for gradrepl: Dataset, TensorDataset, Subset, DataLoader, random_split.

As torch/utils/data/{dataset,dataloader,sampler}.py (single process): a shuffling
DataLoader draws its seeds from the default generator exactly as PyTorch does (one draw for
the iterator's base seed when the iterator is made, one for RandomSampler's own generator at
the first batch), so after torch.manual_seed the batches are PyTorch's.
"""
import itertools
import math

from gradrepl.errors import BudgetExceeded
from gradrepl.limits import LIMITS
from gradrepl.nn import backend as B
from gradrepl.nn.module import LibraryMeta


class Dataset(metaclass=LibraryMeta):
    torch_path = "torch.utils.data.dataset.Dataset"
    gradrepl_subclassable = True
    gradrepl_public = frozenset()

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])

    def __repr__(self):
        return f"<{repr(type(self))[8:-2]} object at {id(self):#x}>"


class TensorDataset(Dataset):
    torch_path = "torch.utils.data.dataset.TensorDataset"
    gradrepl_public = frozenset(("tensors",))

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    torch_path = "torch.utils.data.dataset.Subset"
    gradrepl_public = frozenset(("dataset", "indices"))

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    torch_path = "torch.utils.data.dataset.ConcatDataset"
    gradrepl_public = frozenset(("datasets", "cumulative_sizes"))

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        for i, size in enumerate(self.cumulative_sizes):
            if idx < size:
                start = self.cumulative_sizes[i - 1] if i else 0
                return self.datasets[i][idx - start]
        raise IndexError("list index out of range")


def random_split(dataset, lengths, generator=None):
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(math.floor(len(dataset) * frac))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                B.warn("UserWarning", f"Length of split at index {i} is 0. This might result in an empty dataset.")
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = B.randperm(sum(lengths), B.generator(generator)).tolist()
    return [Subset(dataset, indices[offset - length:offset])
            for offset, length in zip(itertools.accumulate(lengths), lengths)]


def default_collate(batch):
    """torch.utils.data.default_collate for tensors, numbers, strings, tuples/lists and dicts."""
    elem = batch[0]
    if B.is_tensor(elem):
        return B.TORCH["stack"](batch, 0)
    if isinstance(elem, bool):
        return B.TORCH["tensor"](batch)
    if isinstance(elem, float):
        return B.TORCH["tensor"](batch, dtype=B.TORCH["float64"])
    if isinstance(elem, int):
        return B.TORCH["tensor"](batch)
    if isinstance(elem, str):
        return batch
    if isinstance(elem, dict):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, (tuple, list)):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        return [default_collate(list(samples)) for samples in transposed]
    raise TypeError("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                    f"found {B.class_repr(elem)}")


class DataLoader(metaclass=LibraryMeta):
    torch_path = "torch.utils.data.dataloader.DataLoader"
    gradrepl_public = frozenset(("dataset", "batch_size", "drop_last", "shuffle", "generator", "collate_fn"))

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None,
                 persistent_workers=False, pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if sampler is not None or batch_sampler is not None:
            raise NotImplementedError("DataLoader(sampler=..., batch_sampler=...) is not available in gradrepl")
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.shuffle = bool(shuffle)
        self.generator = generator
        self.collate_fn = collate_fn
        self.num_workers = num_workers

    def batches(self):
        """The index lists of one epoch (BatchSampler over Sequential- or RandomSampler)."""
        n = len(self.dataset)
        if self.shuffle:
            if self.generator is None:
                gen = B.new_generator(B.seed_draw())
            else:
                gen = self.generator
            order = iter(B.randperm(n, gen).tolist())
        else:
            order = iter(range(n))
        if self.batch_size is None:
            for i in order:
                yield i
            return
        if min(self.batch_size, n) > LIMITS.max_items:   # one batch is built by one C call
            raise BudgetExceeded(
                "items", f"sequence too long: the result would have {min(self.batch_size, n)} items, over the "
                f"limit of {LIMITS.max_items} (raise it with --max-items)", "--max-items")
        if self.drop_last:
            for batch in zip(*[order] * self.batch_size):
                yield list(batch)
        else:
            batch = list(itertools.islice(order, self.batch_size))
            while batch:
                yield batch
                batch = list(itertools.islice(order, self.batch_size))

    def __iter__(self):
        B.seed_draw(self.generator)          # _BaseDataLoaderIter._base_seed, drawn when the iterator is made
        return self.fetch()

    def fetch(self):
        collate = self.collate_fn
        for index in self.batches():
            if self.batch_size is None:
                sample = self.dataset[index]
                yield sample if collate is None else collate(sample)
            else:
                samples = [self.dataset[i] for i in index]
                yield default_collate(samples) if collate is None else collate(samples)

    def __len__(self):
        n = len(self.dataset)
        if self.batch_size is None:
            return n
        if self.drop_last:
            return n // self.batch_size
        return (n + self.batch_size - 1) // self.batch_size

    def __repr__(self):
        return f"<torch.utils.data.dataloader.DataLoader object at {id(self):#x}>"


def namespace():
    return {"Dataset": Dataset, "TensorDataset": TensorDataset, "Subset": Subset, "ConcatDataset": ConcatDataset,
            "DataLoader": DataLoader, "random_split": random_split, "default_collate": default_collate}


