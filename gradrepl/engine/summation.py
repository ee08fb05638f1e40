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
    # optional C twin (named apart from the float32-only contiguous one an older build has)
    from gradrepl.engine._kernels import column_sums as _outer_sums_c
except ImportError:
    _outer_sums_c = None
try:
    from gradrepl.engine import _kernels as _C
except ImportError:
    _C = None

GRAIN = 32768           # at::internal::GRAIN_SIZE: from it on PyTorch splits a full sum by threads
# at::get_num_threads() (torch.set_num_threads sets it, through spellings.set_num_threads)
THREADS = {"n": os.cpu_count() or 1}
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_accumulate = np.add.accumulate
builtins_any = any
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
        out = _rows_sum(arr)
        return iter_sum(arr, tuple(range(arr.ndim))) if out is None else out
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


def _outer_sums(block, vectorized=None):
    """Each column of a (size, ..., m) array summed down its rows (the first axis) as
    PyTorch's outer sum does: columns in groups of four (vectors when m fills one and the
    columns are contiguous, scalars otherwise) share one cascade over the rows; the rest are
    summed as rows with four interleaved partial sums."""
    m = block.shape[-1]
    lanes = _LANES[block.dtype]
    if vectorized is None:
        vectorized = m >= lanes
    width = 4 * lanes if vectorized else 4
    grouped = m // width * width
    if (_outer_sums_c is not None and block.ndim == 2 and block.shape[0]
            and not (block.strides[0] | block.strides[1]) % block.itemsize):     # float32 or float64
        out = np.empty(m, block.dtype)
        if not _outer_sums_c(grouped, block, out):     # (a NaN: NumPy's NaN bits)
            return out
    if grouped == m:
        return _multi_row_sum(block)
    if not grouped:
        return _row_sum(block)
    return np.concatenate((_multi_row_sum(block[..., :grouped]), _row_sum(block[..., grouped:])), axis=-1)


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
            return iter_sum(arr, axes)
        out = dim_sum(arr.transpose(order), base_axes)
        if out is None:
            return None
        kept = [d for d in order if d not in axes]
        return out.transpose(np.argsort(kept))
    if not arr.flags.c_contiguous or axes[-1] - axes[0] != len(axes) - 1:
        return iter_sum(arr, axes)
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


def _fma64(a, b, c):
    """float64 a*b + c rounded once: C's fma where _kernels is built (exact at any magnitude;
    rounding.fma64's split overflows near 1e300)."""
    if _C is None or not hasattr(_C, "fma64"):
        return rounding.fma64(a, b, c)
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64))
    out = np.empty(a.shape, np.float64)
    if a.size:
        _C.fma64(*(np.ascontiguousarray(v).reshape(-1) for v in (a, b, c)), out.reshape(-1))
    return out


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
        fma = rounding.fma32 if rows.dtype == np.float32 else _fma64
        for k in range(fused, size):
            b = np.asarray(fma(rows[:, k], rows[:, k], b), rows.dtype)
    return np.sqrt(b)


def iteration_order(shape, out_strides, in_strides):
    """TensorIterator's order of the dims of a reduction, innermost first
    (TensorIteratorBase::reorder_dimensions): the output (strides 0 on the reduced dims) is
    the first operand asked, so the reduced dims come first, ordered among themselves by the
    input's strides, and the kept dims by the output's (contiguous) strides; an ambiguous
    comparison (a stride 0) leaves two dims as they are."""
    def should_swap(d0, d1):
        for k, st in enumerate((out_strides, in_strides)):
            s0, s1 = st[d0], st[d1]
            if k == 0 and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = [d for d in reversed(range(len(shape))) if shape[d] != 1]
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def _kernel_sums(vals, is0, is1, item, lanes):
    """cascade_sum's 2-d loop on vals (..., size1, size0): the sums over the last axis, by the
    kernel the strides of the two dims choose."""
    size1, size0 = vals.shape[-2:]
    if is0 == item and size0 >= lanes:
        return _inner_sums(vals.reshape(-1, size0)).reshape(vals.shape[:-1])
    down = vals.transpose((vals.ndim - 1,) + tuple(range(vals.ndim - 1)))    # the last axis first
    if is1 == item and size1 >= lanes:
        return _outer_sums(down, True)
    if is0 < is1:
        return _row_sum(down)
    return _outer_sums(down, False)


def _two_pass(flat, size0, size1, is0, is1, lanes):
    """One output of GRAIN elements or more (TensorIteratorReduce.cpp, two_pass_reduction):
    each thread sums one chunk of the elements in iteration order (`flat`) into its slot of
    a buffer, calling the 2-d loop on the steps of serial_for_each (the rest of a row, then
    whole rows, dims 0 and 1); the buffer is then summed."""
    item = flat.itemsize
    n, threads = flat.size, THREADS["n"]
    tasks = min(threads, -(-n // GRAIN))
    chunk = -(-n // tasks)
    buffer = np.zeros(threads, flat.dtype)
    for t in range(tasks):
        offset, end = t * chunk, min(n, (t + 1) * chunk)
        acc = flat.dtype.type(0)
        while offset < end:
            v0 = offset % size0
            step0 = min(size0 - v0, end - offset)
            step1 = 1
            if step0 == size0:
                step1 = min(size1 - offset // size0 % size1, (end - offset) // size0)
            block = flat[offset:offset + step0 * step1].reshape(step1, step0)
            for r in _kernel_sums(block, is0, is1, item, lanes):
                acc = acc + r
            offset += step0 * step1
        buffer[t] = acc
    return flat.dtype.type(0) + _row_sum(buffer)


def _reduction_layout(arr, kept):
    """TensorIterator's loop for a reduction keeping the dims `kept`: the dims in
    iteration_order, coalesced where their input and output strides allow it, as groups
    [size, out stride, in stride, dims innermost first] (at least two: the kernel's 2-d
    loop), and the values laid out in that order, shape (..., size1, size0). None when the
    innermost group is not a reduced one (not the kernels' loop)."""
    shape, item = arr.shape, arr.itemsize
    out_strides = [0] * arr.ndim
    step = item
    for d in reversed(kept):
        out_strides[d] = step
        step *= shape[d]
    groups = []
    for d in iteration_order(shape, out_strides, arr.strides):
        g = groups[-1] if groups else None
        if g and g[0] * g[1] == out_strides[d] and g[0] * g[2] == arr.strides[d]:
            g[0] *= shape[d]
            g[3].append(d)
        else:
            groups.append([shape[d], out_strides[d], arr.strides[d], [d]])
    if not groups or groups[0][1] != 0:
        return None
    if len(groups) == 1:
        groups.append([1, 0, 0, []])
    order = [d for g in reversed(groups) for d in reversed(g[3])]
    # a view where the groups allow it (the kernels read any strides; NumPy copies otherwise)
    vals = arr.transpose(order + [d for d in range(arr.ndim) if d not in order])
    return groups, vals.reshape([g[0] for g in reversed(groups)])


def iter_sum(arr, axes):
    """The sum over `axes` of a float array of any strides, in the order of PyTorch's CPU sum
    kernel (SumKernel.cpp, cascade_sum) as TensorIterator lays the loop out: dims ordered by
    iteration_order and coalesced where their strides allow it; the two innermost dims make
    the kernel's 2-d loop (a vectorised inner sum along contiguous reduced elements, a
    vectorised outer sum across contiguous kept ones, or their scalar versions), the outer
    dims call it again, every call adding its sums onto the outputs (zero at first). The
    reduced dims are removed. From GRAIN elements on, PyTorch splits the outputs among its
    threads (parallel_dim_reduction). None where this is not PyTorch's order (negative
    strides, a reduction over size-1 dims only, a single output of GRAIN elements or more)."""
    lanes = _LANES.get(arr.dtype)
    if lanes is None or any(st < 0 for st in arr.strides):
        return None
    shape, item = arr.shape, arr.itemsize
    red = set(axes)
    kept = [d for d in range(arr.ndim) if d not in red]
    if arr.size == 0:
        return np.zeros([shape[d] for d in kept], arr.dtype)
    laid = _reduction_layout(arr, kept)
    if laid is None:
        return None
    groups, vals = laid
    is0, size1, is1 = groups[0][2], groups[1][0], groups[1][2]
    if arr.size >= GRAIN and THREADS["n"] > 1 and all(g[1] == 0 for g in groups):
        return np.asarray(_two_pass(vals.ravel(), groups[0][0], size1, is0, is1, lanes), arr.dtype).reshape(
            [shape[d] for d in kept])
    parts = [(0, size1)]
    if arr.size >= GRAIN and THREADS["n"] > 1:
        # parallel_dim_reduction: the outermost kept dim with at least as many elements as
        # threads is split among them (its columns rounded to 128 bytes when contiguous);
        # only a split of the kernel's second dim changes what the kernel does
        split = next((i for i in range(len(groups) - 1, 0, -1) if groups[i][1] and groups[i][0] >= THREADS["n"]),
                     None)
        if split is None:
            return None
        if split == 1:
            tasks = min(THREADS["n"], size1)
            chunk = -(-size1 // tasks)
            parts = []
            for t in range(tasks):
                begin, end = t * chunk, min(size1, (t + 1) * chunk)
                if is1 == item:
                    per = 128 // item
                    begin -= begin % per
                    end = end if end == size1 else end - end % per
                if begin < end:
                    parts.append((begin, end))
    pieces = [_kernel_sums(vals[..., b:e, :], is0, is1, item, lanes) for b, e in parts]
    sums = pieces[0] if len(pieces) == 1 else np.concatenate(pieces, axis=-1)
    # sums: one axis per group from the outermost down to group 1, in the order of the calls
    rest = list(reversed(groups[1:]))
    summed = [i for i, g in enumerate(rest) if g[1] == 0]
    left = [i for i, g in enumerate(rest) if g[1] != 0]
    zero = arr.dtype.type(0)
    if summed:
        moved = np.transpose(sums, summed + left)
        k = math.prod(moved.shape[:len(summed)])
        sums = _in_order(moved.reshape((k,) + moved.shape[len(summed):])) + zero
    else:
        sums = sums + zero
    dims = [d for i in left for d in reversed(rest[i][3])]
    sums = sums.reshape([shape[d] for d in dims])
    out = sums if dims == sorted(dims) else sums.transpose(np.argsort(dims))
    return out.reshape([shape[d] for d in kept])


def _prod_rows(out, rows, vectorized):
    """binary_kernel_reduce_vec's prod of one row per output onto the outputs `out` (the
    kernel multiplies into the output itself): along contiguous reduced elements
    (vectorized_inner_reduction, `vectorized`) four vectors of lanes multiply down blocks
    of 4 x lanes elements, are multiplied in pairs and their lanes folded left to right,
    the output times that; then the leftover elements one by one onto the output. Lanes as
    sum's: PyTorch's AVX2 build on AVX512 machines too (measured)."""
    size0 = rows.shape[1]
    lanes = _LANES[rows.dtype]
    width = 4 * lanes
    count = size0 // width if vectorized else 0
    if count:
        blocks = np.ascontiguousarray(rows[:, :count * width].reshape(-1, count, 4, lanes).transpose(1, 0, 2, 3))
        acc = np.multiply.reduce(blocks, axis=0) if count > 1 else blocks[0]       # in order (not the inner axis)
        a = (acc[:, 0] * acc[:, 1]) * (acc[:, 2] * acc[:, 3])
        b = a[:, 0]
        for j in range(1, lanes):
            b = b * a[:, j]
        out = out * b
    rest = rows[:, count * width:]
    if rest.shape[1]:
        out = np.multiply.accumulate(np.concatenate((out[:, None], rest), axis=1), axis=1)[:, -1]
    return out


def iter_prod(arr, axes):
    """The product over `axes` (one dim, or all) of a float array of any strides in the order
    of PyTorch's CPU prod kernel (ReduceOpsKernel.cpp prod_kernel_impl through Reduce.h
    binary_kernel_reduce_vec), TensorIterator's dims as in iter_sum: the outputs start at 1
    and each row of the 2-d loop (one per call of the outer dims, in order) multiplies into
    its output; the vectorised outer loop multiplies each column in order as the scalar one.
    One output of GRAIN elements or more through the two-pass reduction (a chunk per
    thread, the chunks' products multiplied in order). None for negative strides or other
    dtypes."""
    if arr.dtype not in (np.float32, np.float64) or builtins_any(st < 0 for st in arr.strides):
        return None
    shape, item = arr.shape, arr.itemsize
    red = set(axes)
    kept = [d for d in range(arr.ndim) if d not in red]
    kept_shape = [shape[d] for d in kept]
    if arr.size == 0:
        return np.ones(kept_shape, arr.dtype)
    laid = _reduction_layout(arr, kept)
    if laid is None:
        return None
    groups, vals = laid
    size0, size1 = groups[0][0], groups[1][0]
    vec = groups[0][2] == item
    one = arr.dtype.type(1)
    if arr.size >= GRAIN and THREADS["n"] > 1 and all(g[1] == 0 for g in groups):
        flat = vals.ravel()
        n = flat.size
        tasks = min(THREADS["n"], -(-n // GRAIN))
        chunk = -(-n // tasks)
        buffer = np.ones(THREADS["n"], arr.dtype)
        for t in range(tasks):
            offset, end = t * chunk, min(n, (t + 1) * chunk)
            acc = np.ones(1, arr.dtype)
            while offset < end:
                step0 = min(size0 - offset % size0, end - offset)
                step1 = min(size1 - offset // size0 % size1, (end - offset) // size0) if step0 == size0 else 1
                for r in flat[offset:offset + step0 * step1].reshape(step1, step0):
                    acc = _prod_rows(acc, r[None, :], vec)
                offset += step0 * step1
            buffer[t] = acc[0]
        return _prod_rows(np.ones(1, arr.dtype), buffer[None, :], True).reshape(kept_shape)
    # the rows in the order they reach their outputs: reduced groups (calls) first, outputs last
    rest = list(reversed(groups[1:]))                 # the axes of vals but the last
    summed = [i for i, g in enumerate(rest) if g[1] == 0]
    left = [i for i, g in enumerate(rest) if g[1] != 0]
    moved = np.transpose(vals, summed + left + [len(rest)])
    k = math.prod(moved.shape[:len(summed)])
    moved = moved.reshape((k, -1, size0))
    out = np.full(moved.shape[1], one)
    for r in range(k):
        out = _prod_rows(out, moved[r], vec)
    dims = [d for i in left for d in reversed(rest[i][3])]
    out = out.reshape([shape[d] for d in dims])
    out = np.transpose(out, np.argsort(dims)) if dims else out
    return out.reshape(kept_shape)
