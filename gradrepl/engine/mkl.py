"""Intel MKL where PyTorch's CPU build uses it, for PyTorch's last bits.

PyTorch 2.13's CPU wheel computes matrix products with MKL 2024.2's sgemm/dgemm (through
the column-major BLAS call of aten's addmm_impl_cpu_, with the transpose flags and leading
dimensions it derives from the operands' strides) and most one-input float functions (sin,
cos, tan, exp, log, sqrt, tanh, atan, erf, ...) with MKL's vector math library (VML, in its
high-accuracy mode). NumPy's own kernels differ from those in the last bit for a few percent
of the values, and a training loop turns one ulp into printed digits. The `mkl` wheel of
the same version (a dependency on x86-64 Linux) gives the same bits: this module finds its
libmkl_rt and calls it through ctypes. Where MKL is not installed (other platforms), every
function here answers None and the callers compute with NumPy as before.

The engine stays free of I/O: loading the library is the only side effect, done once, on
the first product or function that needs it (an empty run never loads it).
"""
import ctypes
import os
import sys

import numpy as np

_LIB = [None]          # None: not tried yet; False: not available
_THREADS = [None]      # the thread count last given to MKL
# VML's threads: one below PyTorch's grain size (parallel_for runs a smaller loop inline),
# MKL's own count above it. An element's bits do not depend on how VML splits the array,
# but waking a second thread costs more than a small call's work, milliseconds when the
# other core is busy. [threads wanted for big arrays, threads VML has now]
_VML_GRAIN = 32768
_VML_THREADS = [1, None]
_MKL_DOMAIN_BLAS, _MKL_DOMAIN_VML = 1, 3
# Small float32 products on one thread: waking MKL's second thread costs more than the
# product (32x30 @ 30x200: ~10 us of work, 40-60 us on two threads on a quiet machine,
# milliseconds when the other core is busy). A product's bits can depend on MKL's threads,
# but not for these: float32, at most _SMALL_MNK multiply-adds and at least _SMALL_ROWS
# rows of the result. (MKL 2024.2's generic path, 1 against 2 threads: no difference in
# 2,100 random shapes and layouts of that kind; differences with 5-11 rows, e.g. 10x40 @
# 40x256, and in float64; tests/engine/test_mkl.py.) [threads BLAS has now]
_SMALL_MNK = 1 << 20
_SMALL_ROWS = 12
_BLAS_THREADS = [None]

# VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE, as aten/src/ATen/cpu/vml.h calls vm?<Func>
_VML_MODE = ctypes.c_int64(0x2 | 0x140000 | 0x100)
_P = ctypes.c_void_p
_I = ctypes.c_int
_CBLAS_COL_MAJOR = 102
_NO_TRANS, _TRANS = 111, 112
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)


def _candidates():
    import sysconfig        # only when a product first needs MKL: not at start-up
    seen = []
    for base in (sys.prefix, sysconfig.get_paths().get("data"), sys.base_prefix,
                 os.path.join(os.path.expanduser("~"), ".local")):
        if base:
            path = os.path.join(base, "lib", "libmkl_rt.so.2")
            if path not in seen:
                seen.append(path)
    return seen


def _load():
    if os.environ.get("GRADREPL_MKL", "1") == "0":
        return False
    for path in _candidates():
        if not os.path.exists(path):
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        _threading_layer(lib)
        for name, res, args in (
                ("cblas_sgemm", None, [_I, _I, _I, _I, _I, _I, ctypes.c_float, _P, _I, _P, _I, ctypes.c_float, _P, _I]),
                ("cblas_dgemm", None, [_I, _I, _I, _I, _I, _I, ctypes.c_double, _P, _I, _P, _I, ctypes.c_double, _P, _I]),
                ("cblas_sgemv", None, [_I, _I, _I, _I, ctypes.c_float, _P, _I, _P, _I, ctypes.c_float, _P, _I]),
                ("cblas_dgemv", None, [_I, _I, _I, _I, ctypes.c_double, _P, _I, _P, _I, ctypes.c_double, _P, _I]),
                ("cblas_sdot", ctypes.c_float, [_I, _P, _I, _P, _I]),
                ("cblas_ddot", ctypes.c_double, [_I, _P, _I, _P, _I]),
                ("cblas_sgemm_batch", None, [_I, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _I, _P]),
                ("cblas_dgemm_batch", None, [_I, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P, _I, _P]),
                ("cblas_cgemm", None, [_I, _I, _I, _I, _I, _I, _P, _P, _I, _P, _I, _P, _P, _I]),
                ("cblas_zgemm", None, [_I, _I, _I, _I, _I, _I, _P, _P, _I, _P, _I, _P, _P, _I]),
                ("cblas_cdotu_sub", None, [_I, _P, _I, _P, _I, _P]),
                ("cblas_zdotu_sub", None, [_I, _P, _I, _P, _I, _P])):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        lib.MKL_Set_Num_Threads.argtypes = [_I]
        lib.MKL_Domain_Set_Num_Threads.argtypes = [_I, _I]
        _VML_THREADS[:] = [lib.MKL_Get_Max_Threads(), None]
        # as at::set_num_threads: MKL may not use fewer threads than set (its dynamic mode
        # would, on a busy machine, and a product's bits depend on its threads)
        lib.MKL_Set_Dynamic.argtypes = [_I]
        lib.MKL_Set_Dynamic(0)
        return lib
    return False


def _threading_layer(lib):
    """GNU OpenMP, as PyTorch's MKL runs on (the same bits as Intel's OpenMP, 4 MB less memory,
    threads that stop spinning sooner); Intel's where the system has no libgomp."""
    try:
        ctypes.CDLL("libgomp.so.1")
    except OSError:
        return
    lib.MKL_Set_Threading_Layer.argtypes = [_I]
    lib.MKL_Set_Threading_Layer(3)     # MKL_THREADING_GNU


def lib():
    got = _LIB[0]
    if got is None:
        got = _LIB[0] = _load()
        if got and _THREADS[0] is not None:
            got.MKL_Set_Num_Threads(_THREADS[0])
            _VML_THREADS[:] = [_THREADS[0], None]
    return got


def set_num_threads(n):
    """torch.set_num_threads: a product's bits depend on how MKL splits it among threads."""
    _THREADS[0] = n
    if _LIB[0]:
        _LIB[0].MKL_Set_Num_Threads(n)
        _VML_THREADS[:] = [n, None]
        _BLAS_THREADS[0] = None


# ---------------------------------------------------------------- VML
VML = {"sin": "Sin", "cos": "Cos", "tan": "Tan", "exp": "Exp", "log": "Ln", "sqrt": "Sqrt", "tanh": "Tanh",
       "atan": "Atan", "asin": "Asin", "acos": "Acos", "erf": "Erf", "erfc": "Erfc", "erfinv": "ErfInv",
       "log10": "Log10", "log2": "Log2", "lgamma": "LGamma"}
_VML_FN = {}


def vml(name, a):
    """PyTorch's `name` of a float32/float64 array, computed by VML as aten's vml.h does; None
    where MKL is not there or the dtype has no VML kernel (half precision: NumPy's path)."""
    code = "s" if a.dtype == np.float32 else "d" if a.dtype == np.float64 else None
    if code is None:
        return None
    key = code + name
    fn = _VML_FN.get(key)
    if fn is None:
        mkl = lib()
        if not mkl:
            return None
        fn = _VML_FN[key] = getattr(mkl, "vm" + code + VML[name])
        fn.restype, fn.argtypes = None, [ctypes.c_int, _P, _P, ctypes.c_int64]
    x = a if a.flags.c_contiguous else a.copy()     # (np.ascontiguousarray makes 0-d arrays 1-d)
    out = np.empty(x.shape, x.dtype)
    if x.size:
        threads = 1 if x.size < _VML_GRAIN else _VML_THREADS[0]
        if threads != _VML_THREADS[1]:
            _LIB[0].MKL_Domain_Set_Num_Threads(threads, _MKL_DOMAIN_VML)
            _VML_THREADS[1] = threads
        fn(x.size, _ptr(x), _ptr(out), _VML_MODE)
    return out


def vml_kernel(name, fallback):
    """A one-input kernel: VML's bits where MKL is there, `fallback` otherwise."""
    def kernel(a):
        out = vml(name, a) if a.dtype.kind == "f" else None
        return fallback(a) if out is None else out
    kernel.__name__ = name
    return kernel


# ---------------------------------------------------------------- products
def _blas_type(*arrays):
    dt = arrays[0].dtype
    if dt not in (np.float32, np.float64) or any(x.dtype != dt for x in arrays):
        return None
    return dt


def _el_strides(x):
    item = x.itemsize
    return tuple(s // item if s % item == 0 else None for s in x.strides)


try:
    from gradrepl.engine._kernels import address as _ptr     # x.ctypes.data, cheaper
except ImportError:
    def _ptr(x):
        return x.ctypes.data


def _blas_threads(mkl, n):
    """MKL's BLAS on n threads (mm's small products on one, every other call on MKL's count)."""
    mkl.MKL_Domain_Set_Num_Threads(n, _MKL_DOMAIN_BLAS)
    _BLAS_THREADS[0] = n


def _normalize_last_dims(ta, tb, m, n, k, lda, ldb, ldc):
    """cpublas' normalize_last_dims: the leading dimensions BLAS is given for degenerate sizes."""
    if n == 1:
        ldc = m
    if ta:
        if m == 1:
            lda = k
    elif k == 1:
        lda = m
    if tb:
        if k == 1:
            ldb = n
    elif n == 1:
        ldb = k
    return lda, ldb, ldc


def mm(m1, m2, self=None, beta=0.0, alpha=1.0):
    """aten's addmm_impl_cpu_ for 2-D float arrays: result = beta * self + alpha * m1 @ m2
    (self broadcast to the result's shape; not read when beta is 0), the BLAS call's
    transpose flags and leading dimensions taken from the operands' strides as PyTorch takes
    them. None where MKL is not there."""
    dt = m1.dtype
    if (dt != _F32 and dt != _F64 and dt != _C64 and dt != _C128) or m2.dtype != dt:
        return None
    mkl = _LIB[0] if _LIB[0] is not None else lib()
    if not mkl:
        return None
    rows, kdim = m1.shape
    cols = m2.shape[1]
    result = np.empty((rows, cols), dt)      # row-major, as PyTorch's fresh result
    if not rows or not cols:
        return result
    if not kdim:
        if beta == 0 or self is None:
            result[...] = 0
        else:
            result[...] = self
            result *= dt.type(beta)
        return result
    if self is not None and beta != 0:
        result[...] = self
    else:
        self = None
    # The result is row-major (strides (cols, 1)): PyTorch computes its transpose, swapping
    # the operands, unless it has one column (strides (1, 1), read as column-major).
    # Strides in bytes here: `one` is the item size.
    one = dt.itemsize
    tc = cols != 1
    if tc:
        a, b, m, n = m2, m1, cols, rows
        ai, aj = a.strides[1], a.strides[0]
        bi, bj = b.strides[1], b.strides[0]
    else:
        a, b, m, n = m1, m2, rows, cols
        ai, aj = a.strides
        bi, bj = b.strides
    k = kdim
    if ai == one and aj >= one * m and aj % one == 0:
        ta, lda = False, aj
    elif aj == one and ai >= one * k and ai % one == 0:
        ta, lda = True, ai
    else:
        a, ta = np.ascontiguousarray(a), not tc
        lda = a.strides[0]
    if bi == one and bj >= one * k and bj % one == 0:
        tb, ldb = False, bj
    elif bj == one and bi >= one * n and bi % one == 0:
        tb, ldb = True, bi
    else:
        b, tb = np.ascontiguousarray(b), not tc
        ldb = b.strides[0]
    lda, ldb, ldc = _normalize_last_dims(ta, tb, m, n, k, lda // one, ldb // one, cols if tc else 1)
    threads = 1 if (one == 4 and rows >= _SMALL_ROWS and rows * cols * k <= _SMALL_MNK) else _VML_THREADS[0]
    if threads != _BLAS_THREADS[0]:
        _blas_threads(mkl, threads)
    if dt.kind == "c":      # cgemm/zgemm: alpha and beta by pointer
        scalars = np.array([alpha, 0.0 if self is None else beta], dt)
        (mkl.cblas_cgemm if dt == _C64 else mkl.cblas_zgemm)(
            _CBLAS_COL_MAJOR, _TRANS if ta else _NO_TRANS, _TRANS if tb else _NO_TRANS, m, n, k, _ptr(scalars[:1]),
            _ptr(a), lda, _ptr(b), ldb, _ptr(scalars[1:]), _ptr(result), ldc)
        return result
    (mkl.cblas_sgemm if dt == _F32 else mkl.cblas_dgemm)(
        _CBLAS_COL_MAJOR, _TRANS if ta else _NO_TRANS, _TRANS if tb else _NO_TRANS, m, n, k, alpha,
        _ptr(a), lda, _ptr(b), ldb, 0.0 if self is None else beta, _ptr(result), ldc)
    return result


def mv(mat, vec):
    """aten's addmv (beta 0) for a 2-D float matrix and a vector: MKL's gemv with the
    transpose flag PyTorch picks from the matrix's strides. None where MKL is not there."""
    dt = _blas_type(mat, vec)
    mkl = lib() if dt is not None else None
    if not mkl:
        return None
    rows, cols = mat.shape
    out = np.zeros(rows, dt)
    if out.size == 0 or cols == 0:
        return out
    v = vec if vec.strides[0] % vec.itemsize == 0 else np.ascontiguousarray(vec)
    incx = v.strides[0] // v.itemsize
    if incx <= 0:
        v, incx = np.ascontiguousarray(v), 1
    if _BLAS_THREADS[0] != _VML_THREADS[0]:
        _blas_threads(mkl, _VML_THREADS[0])
    gemv = mkl.cblas_sgemv if dt == np.float32 else mkl.cblas_dgemv
    s = _el_strides(mat)
    if s[0] == 1 and (cols == 1 or (s[1] is not None and s[1] >= max(1, rows))):
        trans, m, n, lda = _NO_TRANS, rows, cols, s[1]
    else:
        if not (s[1] == 1 and (rows == 1 or (s[0] is not None and s[0] >= max(1, cols)))):
            mat = np.ascontiguousarray(mat)
        trans, m, n, lda = _TRANS, cols, rows, _el_strides(mat)[0]
    if n == 1:       # cpublas::gemv
        lda = m
    gemv(_CBLAS_COL_MAJOR, trans, m, n, 1.0, _ptr(mat), max(1, lda), _ptr(v), incx, 0.0, _ptr(out), 1)
    return out


def dot(x, y):
    """aten's dot for float vectors: BLAS sdot/ddot (cdotu/zdotu for complex ones). None where
    MKL is not there."""
    dt = _blas_type(x, y)
    if dt is None and x.dtype == y.dtype and x.dtype in (_C64, _C128):
        dt = x.dtype
    mkl = lib() if dt is not None else None
    if not mkl:
        return None
    n = x.shape[0]
    if n == 0:
        return np.zeros((), dt)
    xs = x if x.strides[0] > 0 and x.strides[0] % x.itemsize == 0 else np.ascontiguousarray(x)
    ys = y if y.strides[0] > 0 and y.strides[0] % y.itemsize == 0 else np.ascontiguousarray(y)
    incx, incy = (1, 1) if n == 1 else (xs.strides[0] // xs.itemsize, ys.strides[0] // ys.itemsize)
    if _BLAS_THREADS[0] != _VML_THREADS[0]:
        _blas_threads(mkl, _VML_THREADS[0])
    if dt.kind == "c":
        out = np.zeros((), dt)
        (mkl.cblas_cdotu_sub if dt == _C64 else mkl.cblas_zdotu_sub)(n, _ptr(xs), incx, _ptr(ys), incy, _ptr(out))
        return out
    f = mkl.cblas_sdot if dt == np.float32 else mkl.cblas_ddot
    return np.asarray(f(n, _ptr(xs), incx, _ptr(ys), incy), dt)


def qr(a, complete=False):
    """torch.linalg.qr of a float32/float64 array (..., m, n) as PyTorch computes it: LAPACK's
    ?geqrf then ?orgqr in MKL, column-major (NumPy's LAPACK gives other last bits). (Q, R), or
    None where MKL is not there or the dtype is another."""
    mkl = lib() if a.dtype in (_F32, _F64) and a.ndim >= 2 and a.size else None
    if not mkl:
        return None
    t = "s" if a.dtype == _F32 else "d"
    geqrf, orgqr = getattr(mkl, f"LAPACKE_{t}geqrf"), getattr(mkl, f"LAPACKE_{t}orgqr")
    geqrf.restype = orgqr.restype = _I
    geqrf.argtypes = [_I, _I, _I, _P, _I, _P]
    orgqr.argtypes = [_I, _I, _I, _I, _P, _I, _P]
    if _BLAS_THREADS[0] != _VML_THREADS[0]:
        _blas_threads(mkl, _VML_THREADS[0])
    m, n = a.shape[-2:]
    k = min(m, n)
    cols = m if complete else k
    mats = a.reshape(-1, m, n)
    qs = np.empty((mats.shape[0], m, cols), a.dtype)
    rs = np.empty((mats.shape[0], m if complete else k, n), a.dtype)
    for i, mat in enumerate(mats):
        f = np.asfortranarray(mat.copy())
        tau = np.zeros(k, a.dtype)
        if geqrf(_CBLAS_COL_MAJOR, m, n, _ptr(f), m, _ptr(tau)) != 0:
            return None
        rs[i] = np.triu(f[:rs.shape[1]])
        q = np.zeros((m, cols), a.dtype, order="F")
        q[:, :min(cols, n)] = f[:, :min(cols, n)]
        if orgqr(_CBLAS_COL_MAJOR, m, cols, k, _ptr(q), m, _ptr(tau)) != 0:
            return None
        qs[i] = q
    return qs.reshape(a.shape[:-2] + (m, cols)), rs.reshape(a.shape[:-2] + rs.shape[1:])


def _items_ok(t):
    s, z = _el_strides(t), t.shape
    return ((s[2] == 1 and (z[1] == 1 or (s[1] is not None and s[1] >= z[2]))) or
            (s[1] == 1 and (z[2] == 1 or (s[2] is not None and s[2] >= z[1]))))


def bmm(b1, b2):
    """aten's bmm_out_or_baddbmm_ for 3-D float arrays: small products (k * rows * cols < 400)
    by its naive kernel (a float sum in order over k), larger ones by MKL's batched gemm (or
    one gemm per batch item). None where MKL is not there and the product is not small."""
    dt = _blas_type(b1, b2)
    if dt is None:
        return None
    bs, rows, kdim = b1.shape
    cols = b2.shape[2]
    out = np.zeros((bs, rows, cols), dt)
    if out.size == 0 or kdim == 0:
        return out
    if kdim * rows * cols < 400:
        acc = np.zeros((bs, rows, cols), dt)
        for k in range(kdim):
            acc += b1[:, :, k, None] * b2[:, None, k, :]
        return acc
    mkl = lib()
    if not mkl:
        return None
    if not (_items_ok(b1) and _items_ok(b2)):
        for i in range(bs):
            out[i] = mm(b1[i], b2[i])
        return out
    if bs == 1:
        out[0] = mm(b1[0], b2[0])
        return out
    # baddbmm_with_gemm_: gemm expects Fortran order, so the operands swap
    s1, s2 = _el_strides(b1), _el_strides(b2)
    ta = s2[1] == 1 and s2[2] >= b2.shape[1]
    tb = s1[1] == 1 and s1[2] >= b1.shape[1]
    m, n, k = cols, rows, kdim
    lda, ldb, ldc = _normalize_last_dims(ta, tb, m, n, k, s2[2] if ta else s2[1], s1[2] if tb else s1[1], cols)
    P = ctypes.c_void_p * bs
    pa = P(*[b2.ctypes.data + i * b2.strides[0] for i in range(bs)])
    pb = P(*[b1.ctypes.data + i * b1.strides[0] for i in range(bs)])
    pc = P(*[out.ctypes.data + i * out.strides[0] for i in range(bs)])
    scal = ctypes.c_float if dt == np.float32 else ctypes.c_double
    ints = lambda v: ctypes.byref(ctypes.c_int(v))
    if _BLAS_THREADS[0] != _VML_THREADS[0]:
        _blas_threads(mkl, _VML_THREADS[0])
    fn = mkl.cblas_sgemm_batch if dt == np.float32 else mkl.cblas_dgemm_batch
    fn(_CBLAS_COL_MAJOR, ints(_TRANS if ta else _NO_TRANS), ints(_TRANS if tb else _NO_TRANS), ints(m), ints(n),
       ints(k), ctypes.byref(scal(1.0)), pa, ints(lda), pb, ints(ldb), ctypes.byref(scal(0.0)), pc, ints(ldc), 1,
       ints(bs))
    return out


# ---------------------------------------------------------------- FFT (DFTI)
# mkl_dfti.h's values: the configuration parameters and their settings
_DFTI_SINGLE, _DFTI_DOUBLE, _DFTI_COMPLEX = 35, 36, 32
_DFTI_PLACEMENT, _DFTI_NOT_INPLACE = 11, 44
_DFTI_NUMBER_OF_TRANSFORMS, _DFTI_INPUT_DISTANCE, _DFTI_OUTPUT_DISTANCE = 7, 14, 15
_DFTI_INPUT_STRIDES, _DFTI_OUTPUT_STRIDES = 12, 13
_DFTI_FORWARD_SCALE, _DFTI_BACKWARD_SCALE = 4, 5


def dft_c2c(a, dims, mode, forward):
    """PyTorch's complex-to-complex FFT of array `a` over `dims` (aten's _fft_c2c_mkl and
    _exec_fft): the transformed dims in stride order after the others (also in stride order),
    folded into one batch dim (a copy only where a view cannot be had), one DFTI descriptor
    with those strides, the scale of `mode` ("none", "by_n", "by_root_n") set on the
    descriptor. None where MKL is not installed."""
    mkl = _LIB[0] if _LIB[0] is not None else lib()
    if not mkl or a.dtype not in (_C64, _C128) or a.size == 0 or not dims:
        return None
    item = a.itemsize
    if any(s % item for s in a.strides):
        a = a.copy()
    signal_dims = sorted(dims, key=lambda d: -a.strides[d])
    batch_dims = sorted((d for d in range(a.ndim) if d not in dims), key=lambda d: -a.strides[d])
    perm = batch_dims + signal_dims
    x = a.transpose(perm)
    signal = tuple(x.shape[len(batch_dims):])
    batch_shape = tuple(x.shape[:len(batch_dims)])
    x = x.reshape((-1,) + signal)
    if any(s % item or s < 0 for s in x.strides):
        x = np.ascontiguousarray(x)
    out = np.empty(x.shape, a.dtype)
    handle = ctypes.c_void_p()
    prec = ctypes.c_int(_DFTI_SINGLE if a.dtype == _C64 else _DFTI_DOUBLE)
    n = len(signal)
    if n == 1:
        status = mkl.DftiCreateDescriptor(ctypes.byref(handle), prec, ctypes.c_int(_DFTI_COMPLEX), ctypes.c_long(1),
                                          ctypes.c_long(signal[0]))
    else:
        status = mkl.DftiCreateDescriptor(ctypes.byref(handle), prec, ctypes.c_int(_DFTI_COMPLEX), ctypes.c_long(n),
                                          (ctypes.c_long * n)(*signal))
    if status:
        return None
    try:
        def set_value(param, value):
            if mkl.DftiSetValue(handle, ctypes.c_int(param), value):
                raise RuntimeError("DFTI configuration failed")
        set_value(_DFTI_PLACEMENT, ctypes.c_int(_DFTI_NOT_INPLACE))
        set_value(_DFTI_NUMBER_OF_TRANSFORMS, ctypes.c_long(x.shape[0]))
        set_value(_DFTI_INPUT_DISTANCE, ctypes.c_long(x.strides[0] // item))
        set_value(_DFTI_OUTPUT_DISTANCE, ctypes.c_long(out.strides[0] // item))
        set_value(_DFTI_INPUT_STRIDES, (ctypes.c_long * (n + 1))(0, *[s // item for s in x.strides[1:]]))
        set_value(_DFTI_OUTPUT_STRIDES, (ctypes.c_long * (n + 1))(0, *[s // item for s in out.strides[1:]]))
        if mode != "none":
            numel = 1
            for s in signal:
                numel *= s
            scale = 1.0 / (np.sqrt(float(numel)) if mode == "by_root_n" else float(numel))
            set_value(_DFTI_FORWARD_SCALE if forward else _DFTI_BACKWARD_SCALE, ctypes.c_double(scale))
        if mkl.DftiCommitDescriptor(handle):
            return None
        compute = mkl.DftiComputeForward if forward else mkl.DftiComputeBackward
        if compute(handle, ctypes.c_void_p(x.ctypes.data), ctypes.c_void_p(out.ctypes.data)):
            return None
    except RuntimeError:
        return None
    finally:
        mkl.DftiFreeDescriptor(ctypes.byref(handle))
    out = out.reshape(batch_shape + signal)
    return out.transpose(np.argsort(perm))
