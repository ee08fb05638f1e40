"""The vectorized sums of engine/summation.py add in exactly the order of PyTorch's cascade
(written out here one addition at a time, as the engine computed it before it was
vectorized; that version was checked against PyTorch's recorded digits)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from gradrepl.engine import summation

LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def ref_multi_row_sum(rows):
    size = rows.shape[0]
    zero = np.zeros(rows.shape[1:], rows.dtype)
    levels = [zero, zero, zero, zero]
    power = max(4, (size - 1).bit_length() // 4 if size > 1 else 0)
    step = 1 << power
    mask = step - 1
    i = 0
    while i + step <= size:
        block = zero
        for k in range(i, i + step):
            block = rows[k] if k == i else block + rows[k]
        levels[0] = levels[0] + block
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


def ref_row_sum(items):
    size = items.shape[0]
    n4 = size // 4
    if n4:
        partial = ref_multi_row_sum(items[:n4 * 4].reshape((n4, 4) + items.shape[1:]))
    else:
        partial = np.zeros((4,) + items.shape[1:], items.dtype)
    acc = partial[0]
    for k in range(n4 * 4, size):
        acc = acc + items[k]
    for k in range(1, 4):
        acc = acc + partial[k]
    return acc


def ref_full_sum(flat):
    lanes = LANES[flat.dtype]
    n = flat.size
    zero = flat.dtype.type(0)
    if n < lanes:
        return zero + ref_row_sum(flat)
    nvec = n // lanes
    vec = ref_row_sum(flat[:nvec * lanes].reshape(nvec, lanes))
    acc = zero
    for k in range(nvec * lanes, n):
        acc = acc + flat[k]
    for k in range(lanes):
        acc = acc + vec[k]
    return zero + acc


def ref_column_sums(block):
    size, m = block.shape
    lanes = LANES[block.dtype]
    width = 4 * lanes if m >= lanes else 4
    grouped = m // width * width
    parts = []
    if grouped:
        parts.append(ref_multi_row_sum(block[:, :grouped]))
    if grouped < m:
        parts.append(ref_row_sum(block[:, grouped:]))
    return np.concatenate(parts)


def ref_row_sums(rows):
    return np.array([ref_full_sum(r) for r in rows], rows.dtype)


def bits(a):
    a = np.asarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64).tolist()


def values(draw, n, dtype):
    kind = draw(st.sampled_from(["normal", "zeros", "wide"]))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    if kind == "zeros":     # signed zeros and tiny values: the cascade's `0 + x` shows here
        x = rng.choice([0.0, -0.0, 1e-30, -1e-30], n)
    elif kind == "wide":
        x = rng.standard_normal(n) * np.exp(rng.uniform(-30, 30, n))
    else:
        x = rng.standard_normal(n) * 10
    return x.astype(dtype)


@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(1, 5000), st.sampled_from([np.float32, np.float64]))
def test_full_sum_adds_in_cascade_order(data, n, dtype):
    x = values(data.draw, n, dtype)
    assert bits(summation.full_sum(x)) == bits(ref_full_sum(x))


@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(1, 600), st.integers(1, 54), st.sampled_from([np.float32, np.float64]))
def test_dim_sums_add_in_cascade_order(data, rows, cols, dtype):
    x = values(data.draw, rows * cols, dtype).reshape(rows, cols)
    # one column is summed as a row (its elements are adjacent in memory)
    columns = ref_column_sums(x) if cols > 1 else ref_row_sums(x.T)
    assert bits(summation.dim_sum(x, (0,))) == bits(columns)
    assert bits(summation.dim_sum(x, (1,))) == bits(ref_row_sums(x))


def test_numpy_adds_along_an_outer_axis_in_order():
    """The assumption the vectorized cascade rests on (a NumPy that changed it fails here)."""
    x = (np.random.default_rng(7).standard_normal((3, 16, 5)) * 1e6).astype(np.float32)
    x[:, 0] = 1e8
    x[:, 1:] = 3.0          # 1e8 + 3 rounds back to 1e8 at every step; a pairwise sum would not
    in_order = x[:, 0]
    for k in range(1, 16):
        in_order = in_order + x[:, k]
    assert bits(summation._block_sums(x.reshape(48, 5), 3, 16)) == bits(in_order)
    assert bits(summation._block_sums(x[:, :, 0].reshape(48), 3, 16)) == bits(in_order[:, 0])
    assert bits(np.add.reduce(x[0, :, 0])) != bits(in_order[0, 0])     # NumPy's pairwise sum
    assert in_order[0, 0] == np.float32(1e8)


@settings(max_examples=200, deadline=None)
@given(st.data(), st.integers(1, 40), st.integers(1, 150), st.integers(1, 12), st.booleans(),
       st.sampled_from([np.float32, np.float64]))
def test_embedding_backward_adds_rows_in_index_order(data, n, k, width, matrix, dtype):
    """C[X].backward: each row of C receives its gradients in the order of X (np.add.at's)."""
    from gradrepl.engine.xp import ARRAYS
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    low = -n if data.draw(st.booleans()) else 0      # negative rows count from the end
    rows = rng.integers(low, n, (k // 3 + 1, 3) if matrix else (k,))
    g = values(data.draw, rows.size * width, dtype).reshape(rows.shape + (width,))
    expected = np.zeros((n, width), dtype)
    np.add.at(expected, (rows,), g)
    assert bits(ARRAYS.scatter((n, width), (rows,), g)) == bits(expected)
