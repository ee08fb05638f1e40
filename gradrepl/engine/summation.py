"""Full sums of float tensors in PyTorch's CPU order, so that `.item()` of a sum or a mean
has PyTorch's last bit (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum).

PyTorch sums a contiguous float tensor in vectors of 8 float32 / 4 float64 lanes (AVX2),
four interleaved partial sums (ILP), and a cascade of levels that keeps operands of like
magnitude; the tail and the lanes are added one by one at the end. Checked bit for bit
against PyTorch 2.13 for sizes 1 to 32767 (tests/engine/test_summation.py has recorded
values). Larger tensors are split across threads by PyTorch, an order that depends on the
thread count: NumPy's pairwise sum is used there, as for reductions over a dim.
"""
import numpy as np

GRAIN = 32768           # at::internal::GRAIN_SIZE: above it PyTorch splits the sum by threads
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def _multi_row_sum(rows):
    size = rows.shape[0]
    zero = np.zeros(rows.shape[1:], rows.dtype)
    levels = [zero, zero, zero, zero]
    power = max(4, (size - 1).bit_length() // 4 if size > 1 else 0)
    step = 1 << power
    mask = step - 1
    i = 0
    while i + step <= size:
        # one block, summed strictly left to right (cumsum is sequential), onto level 0
        levels[0] = levels[0] + np.cumsum(rows[i:i + step], axis=0, dtype=rows.dtype)[-1]
        i += step
        for j in range(1, 4):
            levels[j] = levels[j] + levels[j - 1]
            levels[j - 1] = zero
            if i & (mask << (j * power)):
                break
    acc = levels[0]
    for k in range(i, size):
        acc = acc + rows[k]
    for j in range(1, 4):
        acc = acc + levels[j]
    return acc


def _row_sum(items):
    size = items.shape[0]
    n4 = size // 4
    if n4:
        partial = _multi_row_sum(items[:n4 * 4].reshape((n4, 4) + items.shape[1:]))
    else:
        partial = np.zeros((4,) + items.shape[1:], items.dtype)
    acc = partial[0]
    for k in range(n4 * 4, size):
        acc = acc + items[k]
    for k in range(1, 4):
        acc = acc + partial[k]
    return acc


def full_sum(arr):
    """The sum of every element of a float array as PyTorch's CPU kernel computes it, or
    None when PyTorch's order is not reproduced (large or non-contiguous arrays)."""
    lanes = _LANES.get(arr.dtype)
    n = arr.size
    if lanes is None or n >= GRAIN or not (arr.flags.c_contiguous or arr.flags.f_contiguous or arr.ndim <= 1):
        return None
    flat = arr.ravel(order="K")     # memory order, as TensorIterator walks it
    zero = arr.dtype.type(0)
    if arr.ndim <= 1 and arr.ndim and arr.strides[0] != arr.itemsize:
        return zero + _row_sum(flat)            # strided: PyTorch's scalar path
    if n >= lanes:
        nvec = n // lanes
        vec = _row_sum(flat[:nvec * lanes].reshape(nvec, lanes))
        acc = zero
        for k in range(nvec * lanes, n):
            acc = acc + flat[k]
        for k in range(lanes):
            acc = acc + vec[k]
        return zero + acc
    return zero + _row_sum(flat)
