"""The optional C kernels (engine/_kernels.c) give the NumPy code's bits in engine/kernels.py,
NaN bits included (tests/engine/test_kernels.py pins that code to PyTorch, through whichever
of the two runs)."""
import numpy as np
import pytest

from gradrepl.engine import cpu, kernels as K

pytestmark = pytest.mark.skipif(K._C is None, reason="the C kernels are not built")


def same(fn, *args):
    """fn gives the same shape and bits with the C kernels as with NumPy alone."""
    with np.errstate(all="ignore"):
        with_c = np.asarray(fn(*args))
        saved, K._C = K._C, None
        try:
            numpy_only = np.asarray(fn(*args))
        finally:
            K._C = saved
    assert with_c.shape == numpy_only.shape and with_c.dtype == numpy_only.dtype == np.float32
    return with_c.view(np.int32).tolist() == numpy_only.view(np.int32).tolist()


def every_float32(start, stop, step):
    return np.arange(start, stop, step, dtype=np.int64).astype(np.uint32).view(np.float32)


SPECIAL = np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 1.17549435e-38,
                      3.4028235e38, -3.4028235e38, 88.0, 88.72284, 88.72285, 100.0, 104.0, -104.0,
                      -103.97, -87.33655, 0.75, 1.5, 1.0, np.nextafter(np.float32(1), np.float32(0))])


@pytest.mark.parametrize("fn", [K.expf, K.logf], ids=["expf", "logf"])
def test_unary_kernels_over_all_float32_patterns(fn):
    # every 997th bit pattern (both signs, subnormals, NaNs, infinities), the special values,
    # small arrays (one training step's 32 x 24) and a non-contiguous view
    x = np.concatenate([every_float32(0, 2 ** 32, 997), SPECIAL])
    for v in (x, x[:768].reshape(32, 24), x[5:40], x[::3], x[7:8]):
        assert same(fn, v)


@pytest.mark.parametrize("lo", [0.25, 1.0, 2.0, 64.0])
def test_unary_kernels_over_whole_binades(lo):
    start = int(np.float32(lo).view(np.int32))
    x = every_float32(start, start + 2 ** 23, 7)
    assert same(K.expf, x) and same(K.expf, -x) and same(K.logf, x)


@pytest.fixture(params=["avx512", "avx2"])
def capability(request):
    """The row kernels' vector width (16 or 8 lanes) under each capability."""
    before = cpu.capability()
    cpu.set_capability(request.param)
    yield request.param
    cpu.set_capability(before)


def rows(shape, seed, scale=3.0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale).astype(np.float32)


@pytest.mark.parametrize("shape", [(32, 24), (1, 1), (5, 7), (5, 8), (6, 9), (5, 15), (7, 16), (3, 17), (4, 33),
                                   (2, 3, 100),
                                   (64, 1000)])
def test_row_kernels(shape, capability):
    x, g = rows(shape, 1), rows(shape, 2, 1.0)
    assert same(K.softmax_lastdim, x) and same(K.log_softmax_lastdim, x)
    assert same(K.softmax_backward_lastdim, g, K.softmax_lastdim(x))
    assert same(K.log_softmax_backward_lastdim, g, K.log_softmax_lastdim(x))


def test_row_kernels_with_infinities_nan_and_huge_values(capability):
    x = rows((6, 20), 3)
    x[0, 4] = np.inf
    x[1, :] = -np.inf
    x[2, 7] = np.nan
    x[3, 0] = -np.inf
    x[4] *= 1e30
    x[5, 1] = -0.0
    assert same(K.softmax_lastdim, x) and same(K.log_softmax_lastdim, x)
    g = rows((6, 20), 4)
    g[3, 3] = np.nan
    assert same(K.softmax_backward_lastdim, g, x) and same(K.log_softmax_backward_lastdim, g, x)
    # rows without a NaN in any result: the C kernels' own answer
    assert same(K.log_softmax_lastdim, x[3:6]) and same(K.softmax_lastdim, x[4:6])


def test_tanh_backward():
    y = np.concatenate([np.tanh(rows(20000, 5)), SPECIAL, every_float32(0x3f7f0000, 0x3f800001, 1)])
    g = rows(y.shape, 6)
    assert same(K.tanh_backward, g, y) and same(K.tanh_backward, g[:20000], y[:20000])
    assert same(K.tanh_backward, g[:600].reshape(30, 20), y[:600].reshape(20, 30).T)    # a view


@pytest.mark.parametrize("n", [1, 2, 16, 17, 32, 33, 257, 4097, 70000])
def test_nll_pick_sum(n):
    rng = np.random.default_rng(n)
    x = (rng.standard_normal((n, 5)) * 10.0 ** rng.integers(-6, 6, (n, 1))).astype(np.float32)
    target = rng.integers(0, 5, n)
    assert same(lambda *a: np.float32(K.nll_pick_sum(*a)), x, target)
    x[n // 2, target[n // 2]] = np.nan
    assert same(lambda *a: np.float32(K.nll_pick_sum(*a)), x, target)
    assert same(lambda *a: np.float32(K.nll_pick_sum(*a)), x[:, ::2], target // 2)     # a view


def test_address_is_numpys_data_pointer():
    from gradrepl.engine import mkl
    x = np.arange(960, dtype=np.float32).reshape(32, 30)
    ro = x.copy()
    ro.flags.writeable = False
    for v in (x, x.T, x[::-1], x[:, ::-2], x[3:, 5:], np.array(3.0), np.zeros(0), ro, x.astype(np.float64)[1::2]):
        assert K._C.address(v) == mkl._ptr(v) == v.ctypes.data


def test_outer_sums_match_the_numpy_cascade():
    """summation._outer_sums (a bias's gradient: a (batch, n) float32 gradient summed over the
    batch) gives the NumPy cascade's bits through the C twin: rows around every block and
    level edge (16, 256, 4096; a longer block past 65536 rows), columns around the groups
    of 32 and 4, values over 40 binades, signed zeros, infinities; a NaN goes to NumPy."""
    from gradrepl.engine import summation as S

    rng = np.random.default_rng(0)
    cases = [(r, c) for r in list(range(1, 70)) + [255, 256, 257, 4095, 4096, 4097]
             for c in (1, 3, 4, 5, 8, 24, 31, 32, 33, 200)] + [(70000, 33), (65537, 5)]
    for rows, cols in cases:
        x = (rng.standard_normal((rows, cols)) * np.exp(rng.uniform(-14, 14, (rows, cols)))).astype(np.float32)
        if rows % 5 == 0:
            x[rng.uniform(size=x.shape) < 0.4] = -0.0
            x[:, 0] = -0.0
        if rows % 7 == 0:
            x[rows // 2, 1 % cols] = np.inf
            x[rows // 3, -1] = -np.inf
        for vectorized in (None, True, False):
            with np.errstate(all="ignore"):
                got = S._outer_sums(x, vectorized)
                saved, S._outer_sums_c = S._outer_sums_c, None
                try:
                    want = S._outer_sums(x, vectorized)
                finally:
                    S._outer_sums_c = saved
            assert got.view(np.int32).tolist() == want.view(np.int32).tolist(), (rows, cols, vectorized)
    x = np.ones((40, 40), np.float32)
    x[3, 3] = np.nan
    assert S._outer_sums_c(32, x, np.empty(40, np.float32)) is True


def _numpy_outer_sums(S, x, vectorized):
    saved, S._outer_sums_c = S._outer_sums_c, None
    try:
        return S._outer_sums(x, vectorized)
    finally:
        S._outer_sums_c = saved


def test_outer_sums_of_strided_and_float64_blocks_match_the_numpy_cascade():
    """The C twin reads any non-negative strides (a transposed tensor summed over its
    contiguous-in-memory kept dim: x.t().sum(1), iter_sum's outer kernel) and float64 too,
    with the NumPy cascade's bits."""
    from gradrepl.engine import summation as S

    rng = np.random.default_rng(1)
    for dtype, view in ((np.float32, np.int32), (np.float64, np.int64)):
        for rows, cols in [(1, 1), (3, 5), (17, 33), (64, 7), (256, 256), (257, 130), (4097, 9), (70000, 3)]:
            base = (rng.standard_normal((cols, rows)) * np.exp(rng.uniform(-14, 14, (cols, rows)))).astype(dtype)
            if rows % 2:
                base[rng.uniform(size=base.shape) < 0.3] = -0.0
            for x in (base.T, base.T[:, ::2], base[::-1].T[::-1, 1:], np.ascontiguousarray(base.T)):
                if not x.size:
                    continue
                for vectorized in (None, True, False):
                    with np.errstate(all="ignore"):
                        got = S._outer_sums(x, vectorized)
                        want = _numpy_outer_sums(S, x, vectorized)
                    assert got.dtype == want.dtype == dtype
                    assert got.view(view).tolist() == want.view(view).tolist(), (dtype, rows, cols, vectorized)
    x = np.ones((40, 40))
    x[5, 2] = np.nan
    assert S._outer_sums_c(32, x.T, np.empty(40)) is True


def test_welford_matches_the_numpy_steps():
    """var / std over a dim of float64 (reduce.py _welford_seq): the C twin's mean and m2 have
    the NumPy steps' bits, any strides, one output and many; a NaN goes to NumPy."""
    from gradrepl.engine.ops import reduce as R

    rng = np.random.default_rng(2)
    for k, m in [(1, 1), (2, 3), (5, 1), (256, 256), (1000, 1), (33, 70)]:
        rows = rng.standard_normal((k, m)) * np.exp(rng.uniform(-30, 30, (k, m))) + rng.uniform(-5, 5, m)
        for x in (rows, np.asfortranarray(rows), rows[::-1]):
            got = R._welford_seq(x)
            want = R._welford_numpy(x)
            for a, b in zip(got, want):
                assert a.view(np.int64).tolist() == b.view(np.int64).tolist(), (k, m)
    rows = np.ones((10, 4))
    rows[3, 1] = np.nan
    assert R._welford_c(rows.T, np.empty(4), np.empty(4)) is True


def test_add_rows_matches_numpys_add_at():
    """xp.scatter's embedding backward (C[Xb]): rows of g added into zeros in index order, as
    np.add.at does, repeated rows included; a NaN goes to NumPy, a row out of range is refused."""
    from gradrepl.engine import xp

    rng = np.random.default_rng(1)
    for n, rows, inner in ((96, 24, 10), (1, 1, 1), (500, 3, 7), (32, 27, 1), (7, 1000, 33)):
        idx = rng.integers(0, rows, n)
        g = (rng.standard_normal((n, inner)) * np.exp(rng.uniform(-30, 30, (n, inner)))).astype(np.float32)
        if n == 500:
            g[3, 2] = np.nan
            g[9, 4] = -np.inf
        with np.errstate(all="ignore"):
            got = xp.ARRAYS.scatter((rows, inner), (idx,), g)
            want = np.zeros((rows, inner), np.float32)
            np.add.at(want, (idx,), g)
        assert got.view(np.int32).tolist() == want.view(np.int32).tolist(), (n, rows, inner)
    z = np.zeros((4, 2), np.float32)
    assert xp._add_rows_c(2, 2, np.array([1, 4]), np.ones((2, 2), np.float32), z) == -1
    assert not z.any()


@pytest.mark.parametrize("name", K._LIBM_CODES)
def test_libm_float_in_c_is_libm_through_ctypes(name):
    # _kernels.libm_float calls the same libm functions as the ctypes loop (up to its limit)
    if not K._libm():
        pytest.skip("libm not loadable through ctypes")
    x = np.concatenate([every_float32(0, 2 ** 32, 1_100_003), SPECIAL])     # within the ctypes limit
    for v in (x, x[::3], x[7:8], x[:0]):
        assert same(K.libm_float(name, lambda a: a), v)
