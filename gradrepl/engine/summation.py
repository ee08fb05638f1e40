"""Full sums of float tensors in PyTorch's CPU order, so that `.item()` of a sum or a mean
has PyTorch's last bit (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum).

PyTorch sums a contiguous float tensor in vectors of 8 float32 / 4 float64 lanes (AVX2),
four interleaved partial sums (ILP), and a cascade of levels that keeps operands of like
magnitude; the tail and the lanes are added one by one at the end. Checked bit for bit
against PyTorch 2.13 for sizes 1 to 32767 (tests/engine/test_summation.py has recorded
values; larger ones against the same kernel run by PyTorch on one and on two threads).
Full sums of 32768 elements or more are split across threads by PyTorch, so their order
depends on the thread count (at::get_num_threads(), THREADS below); reductions over a dim
do not depend on it.
"""
import math
import os

import numpy as np

from gradrepl.engine import rounding

try:
    from gradrepl.engine._kernels import outer_sums as _outer_sums_c     # optional C twin
except ImportError:
    _outer_sums_c = None

GRAIN = 32768           # at::internal::GRAIN_SIZE: from it on PyTorch splits a full sum by threads
# at::get_num_threads() (torch.set_num_threads sets it, through spellings.set_num_threads)
THREADS = {"n": os.cpu_count() or 1}
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_F32 = np.dtype(np.float32)
_accumulate = np.add.accumulate
_reduce = np.add.reduce


def _block_sums(rows, nb, step):
    """rows[:nb * step] in nb blocks of `step` rows, each block's rows added strictly in
    order: an array (nb,) + rows.shape[1:]. NumPy adds along an axis that is not the
    innermost one element by element in order (it vectorizes over the inner elements);
    along the innermost one it sums pairwise, so a single column goes through accumulate."""
    rest = rows.shape[1:]
    inner = rows.size // rows.shape[0]      # rows holds at least nb * step >= 1 rows
    part = rows[:nb * step]
    if inner >= 2:
        sums = _reduce(np.ascontiguousarray(part).reshape(nb, step, inner), axis=1)
    else:
        sums = _accumulate(part.reshape(nb, step), axis=1)[:, -1]
    return sums.reshape((nb,) + rest)


def _in_order(rows):
    """rows[0] + rows[1] + ... strictly left to right."""
    n = rows.shape[0]
    if n > 3:
        return _block_sums(rows, 1, n)[0]
    if n == 1:
        return rows[0]
    acc = rows[0] + rows[1]
    return acc + rows[2] if n == 3 else acc


def _multi_row_sum(rows):
    """PyTorch's cascade over the rows of `rows` (all trailing positions at once): blocks of
    2**power rows summed left to right onto level 0, levels carried upward every 2**power
    blocks, then the leftover rows and the levels added in order. Every sum starts from
    +0.0; one final `+ 0` gives the same signed zeros (x + 0 is x for any x but -0.0)."""
    size = rows.shape[0]
    rest = rows.shape[1:]
    if size == 0:
        return np.zeros(rest, rows.dtype)
    power = 4 if size <= 1 << 16 else (size - 1).bit_length() // 4
    step = 1 << power
    nb = size >> power
    cut = nb << power
    blocks = _block_sums(rows, nb, step) if nb else None
    zero = rows.dtype.type(0)
    if nb < step:          # one level in use: the block sums in order, after the leftover rows
        acc = _in_order(rows[cut:]) if cut < size else None
        if nb:
            level = _in_order(blocks)
            acc = level if acc is None else acc + level
        return acc + zero
    zeros = np.zeros(rest, rows.dtype)
    levels = [zeros, zeros, zeros, zeros]
    mask = step - 1
    for b in range(nb):
        levels[0] = levels[0] + blocks[b]
        i = (b + 1) << power
        for j in range(1, 4):
            levels[j] = levels[j] + levels[j - 1]
            levels[j - 1] = zeros
            if i & (mask << (j * power)):
                break
    acc = levels[0]
    for k in range(cut, size):
        acc = acc + rows[k]
    for j in range(1, 4):
        acc = acc + levels[j]
    return acc


def _row_sum(items):
    """The rows of `items` in four interleaved partial sums (row k onto sum k % 4), the
    leftover rows onto the first, then the four added in order."""
    size = items.shape[0]
    n4 = size >> 2
    if n4:
        partial = _multi_row_sum(items[:n4 * 4].reshape((n4, 4) + items.shape[1:]))
        acc = partial[0]
    else:
        partial = None
        acc = np.zeros(items.shape[1:], items.dtype)
    for k in range(n4 * 4, size):
        acc = acc + items[k]
    if partial is None:
        return acc
    return acc + partial[1] + partial[2] + partial[3]


def dense(arr):
    """True when the array's elements fill its memory block without gaps or overlaps, in any
    dim order (a transposed or permuted contiguous tensor): TensorIterator sorts such dims by
    stride and walks them as one contiguous run."""
    if arr.flags.c_contiguous or arr.flags.f_contiguous:
        return True
    step = arr.itemsize
    for size, stride in sorted((d for d in zip(arr.shape, arr.strides) if d[0] != 1), key=lambda d: abs(d[1])):
        if stride != step:
            return False
        step *= size
    return True


def full_sum(arr):
    """The sum of every element of a float array as PyTorch's CPU kernel computes it, or
    None when PyTorch's order is not reproduced (an array of 2 or more dims with gaps
    between its elements). From GRAIN elements on, PyTorch's two-pass reduction gives each
    of its threads one chunk of the elements (at::parallel_for's split), sums each chunk in
    the order below into a buffer of one slot per thread, and then sums the buffer."""
    lanes = _LANES.get(arr.dtype)
    if lanes is None:
        return None
    if not (arr.ndim <= 1 or dense(arr)):
        return _rows_sum(arr)
    flat = arr.ravel(order="K")     # memory order, as TensorIterator walks it
    strided = arr.ndim == 1 and arr.strides[0] != arr.itemsize
    n, threads = arr.size, THREADS["n"]
    if n < GRAIN or threads == 1:
        return _chunk_sum(flat, lanes, strided)
    tasks = min(threads, -(-n // GRAIN))
    chunk = -(-n // tasks)
    buffer = np.zeros(threads, arr.dtype)
    for t in range(tasks):
        buffer[t] = _chunk_sum(flat[t * chunk:(t + 1) * chunk], lanes, strided)
    return arr.dtype.type(0) + _row_sum(buffer)


def _rows_sum(arr):
    """The full sum of an array with gaps between its rows (x[::2], x[:, :5]) that
    TensorIterator sees as rows of contiguous elements (its dims coalesced): each row summed
    as an inner sum, the row sums added onto the output one by one. None otherwise (other
    strides, or GRAIN elements or more, which PyTorch splits among threads)."""
    dims = [(n, st) for n, st in zip(arr.shape, arr.strides) if n != 1]
    merged = []
    for n, st in reversed(dims):        # innermost first: a dim merges into the one inside it
        if merged and st == merged[-1][0] * merged[-1][1]:
            merged[-1] = (merged[-1][0] * n, merged[-1][1])
        else:
            merged.append((n, st))
    if len(merged) != 2 or merged[0][1] != arr.itemsize or merged[1][1] <= 0 or arr.size >= GRAIN:
        return None
    (cols, _), (rows, _) = merged
    row_sums = _inner_sums(np.ascontiguousarray(arr).reshape(rows, cols))
    acc = arr.dtype.type(0)
    for r in row_sums:
        acc = acc + r
    return acc


def _chunk_sum(flat, lanes, strided):
    """One thread's sum of `flat` (cascade_sum's loop over a 1-d range)."""
    zero = flat.dtype.type(0)
    n = flat.size
    if strided:
        return zero + _row_sum(flat)            # strided: PyTorch's scalar path
    if n >= lanes:
        nvec = n // lanes
        cut = nvec * lanes
        vec = _row_sum(flat[:cut].reshape(nvec, lanes))
        # the leftover elements, then the lanes, added one by one from zero
        tail = np.concatenate((flat[cut:], vec)) if cut < n else vec
        return zero + _in_order(tail)
    return zero + _row_sum(flat)


def _inner_sums(rows):
    """Each row of a C-contiguous (n, size) array summed as PyTorch's vectorized inner sum
    does (the full_sum order, row by row, all rows at once)."""
    n, size = rows.shape
    lanes = _LANES[rows.dtype]
    if size < lanes:        # PyTorch's scalar inner sum: four interleaved partial sums
        return _row_sum(rows.T) if size else np.zeros(n, rows.dtype)
    nvec = size // lanes
    cut = nvec * lanes
    vec = _row_sum(rows[:, :cut].reshape(n, nvec, lanes).transpose(1, 0, 2))   # (n, lanes)
    # per row: the leftover columns, then the lanes, added one by one from zero
    tail = np.concatenate((rows[:, cut:], vec), axis=1) if cut < size else vec
    return _in_order(np.ascontiguousarray(tail.T)) + rows.dtype.type(0)


def _outer_sums(block):
    """Each column of a C-contiguous (size, m) array summed down its rows as PyTorch's
    outer sum does: columns in groups of four (vectors when m fills one, scalars otherwise)
    share one cascade over the rows; the rest are summed as rows with four interleaved
    partial sums."""
    size, m = block.shape
    lanes = _LANES[block.dtype]
    width = 4 * lanes if m >= lanes else 4
    grouped = m // width * width
    if _outer_sums_c is not None and block.dtype == _F32 and size and block.flags.c_contiguous:
        out = np.empty(m, _F32)
        if not _outer_sums_c(size, m, grouped, block, out):     # (a NaN: NumPy's NaN bits)
            return out
    if grouped == m:
        return _multi_row_sum(block)
    if not grouped:
        return _row_sum(block)
    return np.concatenate((_multi_row_sum(block[:, :grouped]), _row_sum(block[:, grouped:])))


def dim_sum(arr, axes):
    """The sum over `axes` (sorted, adjacent) of a float array in PyTorch's CPU order, with
    the reduced dims removed; None where that order is not reproduced (the reduced axes are
    not adjacent or the array is not C-contiguous). From GRAIN elements on, PyTorch splits a
    dim reduction across threads by output elements (parallel_dim_reduction: a kept dim,
    columns rounded to 128 bytes), which leaves each output's order as it is."""
    lanes = _LANES.get(arr.dtype)
    if lanes is None or not axes:
        return None
    if not arr.flags.c_contiguous and arr.ndim > 1 and dense(arr):
        # a permuted contiguous tensor reduced over the dims innermost in memory: TensorIterator
        # walks it in memory order (other dims of such tensors are not reproduced: None)
        order = sorted(range(arr.ndim), key=lambda d: -abs(arr.strides[d]))
        base_axes = tuple(sorted(order.index(a) for a in axes))
        if base_axes[-1] != arr.ndim - 1:
            return None
        out = dim_sum(arr.transpose(order), base_axes)
        if out is None:
            return None
        kept = [d for d in order if d not in axes]
        return out.transpose(np.argsort(kept))
    if not arr.flags.c_contiguous or axes[-1] - axes[0] != len(axes) - 1:
        return None
    shape = arr.shape
    first, last = axes[0], axes[-1] + 1
    outer = math.prod(shape[:first])
    reduced = math.prod(shape[first:last])
    inner = math.prod(shape[last:])
    kept = shape[:first] + shape[last:]
    if arr.size == 0:
        return np.zeros(kept, arr.dtype)
    if reduced == arr.size >= GRAIN:      # one output: PyTorch's two-pass (threaded) full sum
        return np.asarray(full_sum(arr)).reshape(kept)
    if inner == 1:
        out = _inner_sums(arr.reshape(outer, reduced))
    elif outer == 1:
        out = _outer_sums(arr.reshape(reduced, inner))
    else:
        blocks = arr.reshape(outer, reduced, inner)
        out = np.stack([_outer_sums(blocks[o]) for o in range(outer)])
    return out.reshape(kept)


def norm2_rows(rows):
    """The 2-norm of each row of a C-contiguous 2-d float array as PyTorch's CPU kernel computes
    it when the reduced elements are the innermost, contiguous ones (ReduceOpsKernel.cpp,
    norm_kernel_tensor_iterator_impl's vectorised path: binary_kernel_reduce_lastdim).

    Squares accumulate in one vector of lanes (8 float32 / 4 float64), one vector after the
    other; the lanes are added one by one; then the leftover elements: GCC's code squares them
    four at a time and adds them in order, and fuses multiply and add (fma) for the last ones.
    Checked bit for bit against PyTorch 2.13 for rows of 1 to 5003 elements. Rows are reduced
    independently (PyTorch splits threads over rows, not within one), so any size is exact."""
    lanes = _LANES[rows.dtype]
    n, size = rows.shape
    cut = size - size % lanes
    sq = rows * rows
    if cut:
        acc = _reduce(sq[:, :cut].reshape(n, cut // lanes, lanes), axis=1)     # in order (see _block_sums)
        b = _accumulate(acc, axis=1)[:, -1]
    else:
        b = np.zeros(n, rows.dtype)
    fused = cut + 4 * ((size - cut) // 4)
    for k in range(cut, fused):
        b = b + sq[:, k]
    if fused < size:
        fma = rounding.fma32 if rows.dtype == np.float32 else rounding.fma64
        for k in range(fused, size):
            b = np.asarray(fma(rows[:, k], rows[:, k], b), rows.dtype)
    return np.sqrt(b)
