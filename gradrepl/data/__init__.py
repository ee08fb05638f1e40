"""torch.utils.data for gradrepl: datasets, samplers, DataLoader, random_split.

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


def default_convert(data):
    """torch.utils.data.default_convert: what a DataLoader without batching hands out
    (tensors as they are, a tuple as a list, containers converted item by item)."""
    if B.is_tensor(data):
        return data
    if isinstance(data, dict):
        return {key: default_convert(data[key]) for key in data}
    if isinstance(data, (tuple, list)):
        return [default_convert(d) for d in data]
    return data


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


class IterableDataset(Dataset):
    """torch.utils.data.IterableDataset: a dataset read by iterating over it (a stream)."""
    torch_path = "torch.utils.data.dataset.IterableDataset"

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    torch_path = "torch.utils.data.dataset.ChainDataset"
    gradrepl_public = frozenset(("datasets",))

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self):
        return sum(len(d) for d in self.datasets)


# ------------------------------------------------------------------ samplers (sampler.py)
def _check_items(n):
    """One batch (or one randperm) is built by one C call: sized before it starts."""
    if n > LIMITS.max_items:
        raise BudgetExceeded(
            "items", f"sequence too long: the result would have {n} items, over the limit of {LIMITS.max_items} "
            "(raise it with --max-items)", "--max-items")


class Sampler(metaclass=LibraryMeta):
    torch_path = "torch.utils.data.sampler.Sampler"
    gradrepl_subclassable = True
    gradrepl_public = frozenset()

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError

    def __repr__(self):
        return f"<{repr(type(self))[8:-2]} object at {id(self):#x}>"


class SequentialSampler(Sampler):
    torch_path = "torch.utils.data.sampler.SequentialSampler"
    gradrepl_public = frozenset(("data_source",))

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """Draws its own generator's seed from the default generator when iteration starts (at
    the first index), then randperm / randint on it, as sampler.py does."""
    torch_path = "torch.utils.data.sampler.RandomSampler"
    gradrepl_public = frozenset(("data_source", "replacement", "num_samples", "generator"))

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = B.new_generator(B.seed_draw()) if self.generator is None else self.generator
        randint = B.TORCH["randint"]
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from randint(0, n, (32,), dtype=B.TORCH["int64"], generator=generator).tolist()
            yield from randint(0, n, (self.num_samples % 32,), dtype=B.TORCH["int64"],
                               generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from B.randperm(n, generator).tolist()
            yield from B.randperm(n, generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    torch_path = "torch.utils.data.sampler.SubsetRandomSampler"
    gradrepl_public = frozenset(("indices", "generator"))

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in B.randperm(len(self.indices), self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    torch_path = "torch.utils.data.sampler.WeightedRandomSampler"
    gradrepl_public = frozenset(("weights", "num_samples", "replacement", "generator"))

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights_tensor = B.TORCH["as_tensor"](weights, dtype=B.TORCH["float64"])
        if len(weights_tensor.shape) != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        rand_tensor = B.TORCH["multinomial"](self.weights, self.num_samples, self.replacement,
                                             generator=self.generator)
        yield from iter(rand_tensor.tolist())

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    torch_path = "torch.utils.data.sampler.BatchSampler"
    gradrepl_public = frozenset(("sampler", "batch_size", "drop_last"))

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        try:
            size = min(self.batch_size, len(self.sampler))
        except TypeError:           # a sampler without a length
            size = self.batch_size
        _check_items(size)
        sampler_iter = iter(self.sampler)
        if self.drop_last:
            for batch in zip(*[sampler_iter] * self.batch_size):
                yield [*batch]
        else:
            batch = [*itertools.islice(sampler_iter, self.batch_size)]
            while batch:
                yield batch
                batch = [*itertools.islice(sampler_iter, self.batch_size)]

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


class _InfiniteConstantSampler(Sampler):
    """What an IterableDataset's DataLoader batches: None, for ever."""
    torch_path = "torch.utils.data.sampler._InfiniteConstantSampler"

    def __iter__(self):
        while True:
            yield None


class DataLoader(metaclass=LibraryMeta):
    """torch.utils.data.DataLoader (single process): the sampler / batch_sampler logic of
    dataloader.py, with its argument checks and messages."""
    torch_path = "torch.utils.data.dataloader.DataLoader"
    gradrepl_public = frozenset(("dataset", "batch_size", "drop_last", "sampler", "batch_sampler", "generator",
                                 "collate_fn", "num_workers"))

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None,
                 persistent_workers=False, pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        self.iterable = isinstance(dataset, IterableDataset)
        if self.iterable:
            if isinstance(shuffle, bool) and shuffle:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler!r}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                                 f"but got batch_sampler={batch_sampler!r}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None:
            if self.iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        self.collate_fn = collate_fn
        self.num_workers = num_workers

    @property
    def auto_collation(self):
        return self.batch_sampler is not None

    def __iter__(self):
        indices = iter(self.batch_sampler if self.auto_collation else self.sampler)
        B.seed_draw(self.generator)          # _BaseDataLoaderIter._base_seed, drawn when the iterator is made
        if self.iterable:
            return self.stream(indices)
        return self.fetch(indices)

    def fetch(self, indices):
        collate = self.collate_fn
        dataset = self.dataset
        if self.auto_collation:
            for index in indices:
                samples = [dataset[i] for i in index]
                yield default_collate(samples) if collate is None else collate(samples)
        else:
            for index in indices:
                sample = dataset[index]
                yield default_convert(sample) if collate is None else collate(sample)

    def stream(self, indices):
        """_IterableDatasetFetcher: batches of next(dataset_iter)."""
        collate = self.collate_fn
        data_iter = iter(self.dataset)
        if not self.auto_collation:
            for sample in data_iter:
                yield default_convert(sample) if collate is None else collate(sample)
            return
        for index in indices:
            data = list(itertools.islice(data_iter, len(index)))
            if not data or (self.drop_last and len(data) < len(index)):
                return
            yield default_collate(data) if collate is None else collate(data)
            if len(data) < len(index):
                return

    def __len__(self):
        if self.iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self.batch_sampler if self.auto_collation else self.sampler)

    def __repr__(self):
        return f"<torch.utils.data.dataloader.DataLoader object at {id(self):#x}>"


def namespace():
    dataset = {"Dataset": Dataset, "TensorDataset": TensorDataset, "Subset": Subset, "ConcatDataset": ConcatDataset,
               "IterableDataset": IterableDataset, "ChainDataset": ChainDataset, "random_split": random_split}
    sampler = {"Sampler": Sampler, "SequentialSampler": SequentialSampler, "RandomSampler": RandomSampler,
               "SubsetRandomSampler": SubsetRandomSampler, "WeightedRandomSampler": WeightedRandomSampler,
               "BatchSampler": BatchSampler}
    # the submodules tutorials import from (`from torch.utils.data import dataset`)
    return {"dataset": dataset, "sampler": sampler, "dataloader": {"DataLoader": DataLoader,
                                                                   "default_collate": default_collate},
            "Dataset": Dataset, "TensorDataset": TensorDataset, "Subset": Subset, "ConcatDataset": ConcatDataset,
            "IterableDataset": IterableDataset, "ChainDataset": ChainDataset,
            "DataLoader": DataLoader, "random_split": random_split, "default_collate": default_collate,
            "default_convert": default_convert,
            "Sampler": Sampler, "SequentialSampler": SequentialSampler, "RandomSampler": RandomSampler,
            "SubsetRandomSampler": SubsetRandomSampler, "WeightedRandomSampler": WeightedRandomSampler,
            "BatchSampler": BatchSampler}


