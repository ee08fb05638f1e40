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


def _inner_sums(rows):
    """Each row of a C-contiguous (n, size) array summed as PyTorch's vectorized inner sum
    does (the full_sum order, row by row, all rows at once)."""
    n, size = rows.shape
    lanes = _LANES[rows.dtype]
    if size < lanes:        # PyTorch's scalar inner sum: four interleaved partial sums
        return _row_sum(rows.T) if size else np.zeros(n, rows.dtype)
    nvec = size // lanes
    acc = np.zeros(n, rows.dtype)
    if nvec:
        vectors = rows[:, :nvec * lanes].reshape(n, nvec, lanes).transpose(1, 0, 2)
        vec = _row_sum(vectors)                      # (n, lanes)
    for k in range(nvec * lanes, size):
        acc = acc + rows[:, k]
    for k in range(lanes):
        acc = acc + vec[:, k]
    return acc


def _outer_sums(block):
    """Each column of a C-contiguous (size, m) array summed down its rows as PyTorch's
    outer sum does: columns in groups of four (vectors when m fills one, scalars otherwise)
    share one cascade over the rows; the rest are summed as rows with four interleaved
    partial sums."""
    size, m = block.shape
    lanes = _LANES[block.dtype]
    width = 4 * lanes if m >= lanes else 4
    grouped = m // width * width
    parts = []
    if grouped:
        parts.append(_multi_row_sum(block[:, :grouped]) if size else np.zeros(grouped, block.dtype))
    if grouped < m:
        parts.append(_row_sum(block[:, grouped:]))
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def dim_sum(arr, axes):
    """The sum over `axes` (sorted, adjacent) of a float array in PyTorch's CPU order, with
    the reduced dims removed; None where that order is not reproduced (the reduced axes are
    not adjacent, the array is not C-contiguous, or PyTorch would split it across threads)."""
    lanes = _LANES.get(arr.dtype)
    if (lanes is None or not axes or arr.size >= GRAIN or not arr.flags.c_contiguous
            or axes[-1] - axes[0] != len(axes) - 1):
        return None
    shape = arr.shape
    outer = int(np.prod(shape[:axes[0]], dtype=np.int64))
    reduced = int(np.prod(shape[axes[0]:axes[-1] + 1], dtype=np.int64))
    inner = int(np.prod(shape[axes[-1] + 1:], dtype=np.int64))
    kept = shape[:axes[0]] + shape[axes[-1] + 1:]
    if arr.size == 0:
        return np.zeros(kept, arr.dtype)
    if inner == 1:
        out = _inner_sums(arr.reshape(outer, reduced))
    else:
        blocks = arr.reshape(outer, reduced, inner)
        out = np.stack([_outer_sums(blocks[o]) for o in range(outer)]) if outer > 1 \
            else _outer_sums(blocks[0])[None]
    return out.reshape(kept)
