/* Optional C twins of the float32 kernels in gradrepl/engine/kernels.py, bit for bit.

   The NumPy code in kernels.py is the reference and the fallback when this module is not
   built; tests/engine/test_kernels_c.py checks that both give the same bits. Sleef's expf
   and logf (Sleef_expf16_u10, Sleef_logf16_u10: src/libm/sleefsimdsp.c, xexpf and the
   AVX512F branch of xlogf_u1; Sleef is Copyright Naoki Shibata and contributors, Boost
   Software License 1.0) are written lane by lane: each fused multiply-add is fmaf (rounded
   once), every other operation a float32 operation. Built with -ffp-contract=off, so the
   compiler fuses nothing else.

   Arguments are C-contiguous float32 buffers (the Python side checks dtype and layout).
   Each function returns whether its output holds a NaN: which NaN (sign, payload) an
   operation passes on depends on the order of its operands in the machine code, so the
   Python side then computes the whole call with NumPy, as without this module. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MAX_LANES 16

/* The loops are compiled twice where GCC can (x86-64): for processors with FMA (fmaf is
   one instruction there) and for the others (fmaf from libm); the bits are the same. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define CLONES __attribute__((target_clones("fma", "default")))
#else
#define CLONES
#endif
#define INLINE static inline __attribute__((always_inline))

static const float R_LN2 = 0x1.715476p+0f, L2U = 0x1.62e4p-1f, L2L = 0x1.7f7d1cp-20f;
static const float EXP_POLY[6] = {0x1.a057b4p-13f, 0x1.6d2d92p-10f, 0x1.11114cp-7f,
                                  0x1.5554f4p-5f, 0x1.555556p-3f, 0x1.0p-1f};
static const float LN2_HI = 0x1.62e43p-1f, LN2_LO = -0x1.05c61p-29f, R075 = 0x1.555556p+0f;
static const float LOG_POLY[3] = {0x1.35feb8p-2f, 0x1.993394p-2f, 0x1.5555b4p-1f};

INLINE float pow2i(int32_t q)     /* vpow2i: the exponent field built directly */
{
    uint32_t bits = ((uint32_t)q + 127u) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

INLINE float sleef_expf(float d)
{
    float t = d * R_LN2, q;
    if (isnan(t))
        q = 0.0f;
    else
        q = rintf(t < -300.0f ? -300.0f : (t > 300.0f ? 300.0f : t));
    int32_t qi = (int32_t)q, half = qi >> 1;
    float s = fmaf(q, -L2U, d);
    s = fmaf(q, -L2L, s);
    float u = EXP_POLY[0];
    for (int k = 1; k < 6; k++)
        u = fmaf(u, s, EXP_POLY[k]);
    u = 1.0f + fmaf(s * s, u, s);
    u = u * pow2i(half) * pow2i(qi - half);
    if (d < -104.0f)
        u = 0.0f;
    if (d > 100.0f)
        u = INFINITY;
    return u;
}

INLINE float sleef_logf(float d)
{
    int ex, unused;
    float scaled = d * R075;
    frexpf(scaled, &ex);
    float e = (float)(ex - 1);                              /* vgetexp */
    if (isinf(scaled) && scaled > 0 && isfinite(d))
        e = 128.0f;
    float fr = frexpf(d, &unused);
    float m = fr >= 0.75f ? fr : fr * 2.0f;                 /* vgetmant into [0.75, 1.5) */
    float sx = LN2_HI * e;
    float sy = fmaf(LN2_LO, e, fmaf(LN2_HI, e, -sx));
    float nx = -1.0f + m, nv = nx - -1.0f;                  /* dfadd2(-1, m) */
    float ny = (-1.0f - (nx - nv)) + (m - nv);
    float dx = 1.0f + m, dv = dx - 1.0f;                    /* dfadd2(1, m) */
    float dy = (1.0f - (dx - dv)) + (m - dv);
    float t = 1.0f / dx;
    float xx = nx * t;
    float u = fmaf(t, nx, -xx);
    float v = fmaf(-dy, t, fmaf(-dx, t, 1.0f));
    float xy = fmaf(xx, v, fmaf(ny, t, u));
    float x2 = xx * xx;
    float p = fmaf(fmaf(LOG_POLY[0], x2, LOG_POLY[1]), x2, LOG_POLY[2]);
    float yx = xx * 2.0f, yy = xy * 2.0f;
    float hi = sx + yx;
    float lo = (((sx - hi) + yx) + sy) + yy;
    float w = (x2 * xx) * p;
    float hi2 = hi + w;
    lo = ((hi - hi2) + w) + lo;
    float r = hi2 + lo;
    if (d == 0.0f)
        r = -INFINITY;
    if (isinf(d) && d > 0)
        r = INFINITY;
    if (d < 0.0f || isnan(d))
        r = NAN;
    return r;
}

/* vec::reduce_all(+) of one row with `lanes` lanes (16 on AVX512, 8 on AVX2): narrower
   than a vector left to right, else lane sums (a partial last vector adds into the first
   lanes), folded in halves (16 lanes: 8, 4, 2, 1) */
INLINE float row_sum(const float *e, Py_ssize_t cols, int lanes)
{
    if (cols < lanes) {
        float acc = e[0];
        for (Py_ssize_t i = 1; i < cols; i++)
            acc += e[i];
        return acc;
    }
    float acc[MAX_LANES];
    memcpy(acc, e, lanes * sizeof(float));
    Py_ssize_t k = lanes;
    for (; k + lanes <= cols; k += lanes)
        for (int j = 0; j < lanes; j++)
            acc[j] += e[k + j];
    for (Py_ssize_t j = 0; k + j < cols; j++)
        acc[j] += e[k + j];
    for (int width = lanes / 2; width >= 1; width /= 2)
        for (int j = 0; j < width; j++)
            acc[j] = acc[j] + acc[j + width];
    return acc[0];
}

INLINE float row_max(const float *x, Py_ssize_t cols)     /* np.maximum.reduce: NaN wins */
{
    float m = x[0];
    for (Py_ssize_t i = 1; i < cols && !isnan(m); i++)
        if (isnan(x[i]) || x[i] > m)
            m = x[i];
    return m;
}

/* ---------------------------------------------------------------- argument handling */

typedef struct {
    Py_buffer views[4];
    int count;
} Buffers;

static void release(Buffers *b)
{
    for (int i = 0; i < b->count; i++)
        PyBuffer_Release(&b->views[i]);
}

/* n buffers (the last one written), each at least `need` floats; need < 0: as the first */
static int take(Buffers *b, PyObject *const *args, int n, Py_ssize_t need, float **ptr)
{
    b->count = 0;
    for (int i = 0; i < n; i++) {
        int flags = i == n - 1 ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS;
        if (PyObject_GetBuffer(args[i], &b->views[i], flags) < 0) {
            release(b);
            return -1;
        }
        b->count++;
        Py_ssize_t len = b->views[i].len / (Py_ssize_t)sizeof(float);
        if (need < 0)
            need = len;
        if (len < need) {
            release(b);
            PyErr_SetString(PyExc_ValueError, "buffer too small");
            return -1;
        }
        ptr[i] = (float *)b->views[i].buf;
    }
    return 0;
}

static int shape2(PyObject *const *args, Py_ssize_t *rows, Py_ssize_t *cols)
{
    *rows = PyLong_AsSsize_t(args[0]);
    *cols = PyLong_AsSsize_t(args[1]);
    if (PyErr_Occurred())
        return -1;
    if (*rows < 0 || *cols < 1) {
        PyErr_SetString(PyExc_ValueError, "bad shape");
        return -1;
    }
    return 0;
}

CLONES static int expf_k(const float *x, float *out, Py_ssize_t n)
{
    int nan = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = sleef_expf(x[i]);
        nan |= isnan(out[i]);
    }
    return nan;
}

CLONES static int logf_k(const float *x, float *out, Py_ssize_t n)
{
    int nan = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = sleef_logf(x[i]);
        nan |= isnan(out[i]);
    }
    return nan;
}

/* expf(x, out), logf(x, out): element by element; the result says whether out has a NaN */
static PyObject *unary(PyObject *const *args, Py_ssize_t nargs,
                       int (*loop)(const float *, float *, Py_ssize_t))
{
    Buffers b;
    float *p[2];
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "two buffers expected");
        return NULL;
    }
    if (take(&b, args, 2, -1, p) < 0)
        return NULL;
    int nan = loop(p[0], p[1], b.views[0].len / (Py_ssize_t)sizeof(float));
    release(&b);
    return PyBool_FromLong(nan);
}

static PyObject *py_expf(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return unary(args, nargs, expf_k);
}

static PyObject *py_logf(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return unary(args, nargs, logf_k);
}

/* libm_float(code, x, out): the C library's float function LIBM_FLOAT[code] element by
   element, as PyTorch's scalar loops call std::NAME(float) (the same libm on the same
   machine); kernels.libm_float names the codes. NaN results are libm's own. */
typedef float (*float_fn)(float);
static const float_fn LIBM_FLOAT[] = {sinhf, coshf, expm1f, log1pf, expf, logf, tanhf, erff, acosf, cosf,
                                      sinf, exp2f, asinhf, acoshf, atanhf};

static PyObject *py_libm_float(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Buffers b;
    float *p[2];
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "libm_float(code, x, out)");
        return NULL;
    }
    long code = PyLong_AsLong(args[0]);
    if (code < 0 || code >= (long)(sizeof LIBM_FLOAT / sizeof LIBM_FLOAT[0])) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "no such function");
        return NULL;
    }
    if (take(&b, args + 1, 2, -1, p) < 0)
        return NULL;
    float_fn fn = LIBM_FLOAT[code];
    Py_ssize_t n = b.views[0].len / (Py_ssize_t)sizeof(float);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        p[1][i] = fn(p[0][i]);
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

/* libm_float2(code, a, b, out): LIBM_FLOAT2[code](a[i], b[i]), as libm_float */
typedef float (*float_fn2)(float, float);
static const float_fn2 LIBM_FLOAT2[] = {powf, atan2f};

static PyObject *py_libm_float2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Buffers b;
    float *p[3];
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "libm_float2(code, a, b, out)");
        return NULL;
    }
    long code = PyLong_AsLong(args[0]);
    if (code < 0 || code >= (long)(sizeof LIBM_FLOAT2 / sizeof LIBM_FLOAT2[0])) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "no such function");
        return NULL;
    }
    if (take(&b, args + 1, 3, -1, p) < 0)
        return NULL;
    float_fn2 fn = LIBM_FLOAT2[code];
    Py_ssize_t n = b.views[0].len / (Py_ssize_t)sizeof(float);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        p[2][i] = fn(p[0][i], p[1][i]);
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

/* (rows, cols, lanes, x, out) with the row kernels below; extra float buffers between x
   and out; lanes is 8 or 16 */
static PyObject *rowwise(PyObject *const *args, Py_ssize_t nargs, int buffers,
                         int (*fn)(float **, Py_ssize_t, Py_ssize_t, int))
{
    Py_ssize_t rows, cols;
    Buffers b;
    float *p[4];
    if (nargs != 3 + buffers) {
        PyErr_SetString(PyExc_TypeError, "wrong number of arguments");
        return NULL;
    }
    if (shape2(args, &rows, &cols) < 0)
        return NULL;
    long lanes = PyLong_AsLong(args[2]);
    if (lanes != 8 && lanes != 16) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "lanes: 8 or 16");
        return NULL;
    }
    if (take(&b, args + 3, buffers, rows * cols, p) < 0)
        return NULL;
    int nan = fn(p, rows, cols, (int)lanes);
    release(&b);
    return PyBool_FromLong(nan);
}

/* out = shifted - logf(sum(expf(shifted))), shifted = x - max(x); exp goes through out */
CLONES static int log_softmax_k(float **p, Py_ssize_t rows, Py_ssize_t cols, int lanes)
{
    int nan = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        const float *x = p[0] + r * cols;
        float *out = p[1] + r * cols;
        float m = row_max(x, cols);
        for (Py_ssize_t i = 0; i < cols; i++)
            out[i] = sleef_expf(x[i] - m);
        float lse = sleef_logf(row_sum(out, cols, lanes));
        for (Py_ssize_t i = 0; i < cols; i++) {
            out[i] = (x[i] - m) - lse;
            nan |= isnan(out[i]);
        }
    }
    return nan;
}

/* out = expf(x - max(x)) * (1 / sum) */
CLONES static int softmax_k(float **p, Py_ssize_t rows, Py_ssize_t cols, int lanes)
{
    int nan = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        const float *x = p[0] + r * cols;
        float *out = p[1] + r * cols;
        float m = row_max(x, cols);
        for (Py_ssize_t i = 0; i < cols; i++)
            out[i] = sleef_expf(x[i] - m);
        float inv = 1.0f / row_sum(out, cols, lanes);
        for (Py_ssize_t i = 0; i < cols; i++) {
            out[i] = out[i] * inv;
            nan |= isnan(out[i]);
        }
    }
    return nan;
}

/* (grad, y, out): out = (grad - sum(grad * y)) * y */
CLONES static int softmax_backward_k(float **p, Py_ssize_t rows, Py_ssize_t cols, int lanes)
{
    int nan = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        const float *g = p[0] + r * cols, *y = p[1] + r * cols;
        float *out = p[2] + r * cols;
        for (Py_ssize_t i = 0; i < cols; i++)     /* the products, summed in place below */
            out[i] = g[i] * y[i];
        float s = row_sum(out, cols, lanes);
        for (Py_ssize_t i = 0; i < cols; i++) {
            out[i] = (g[i] - s) * y[i];
            nan |= isnan(out[i]);
        }
    }
    return nan;
}

/* (grad, y, out): out = fmaf(-expf(y), sum(grad), grad) */
CLONES static int log_softmax_backward_k(float **p, Py_ssize_t rows, Py_ssize_t cols, int lanes)
{
    int nan = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        const float *g = p[0] + r * cols, *y = p[1] + r * cols;
        float *out = p[2] + r * cols;
        float s = row_sum(g, cols, lanes);
        for (Py_ssize_t i = 0; i < cols; i++) {
            out[i] = fmaf(-sleef_expf(y[i]), s, g[i]);
            nan |= isnan(out[i]);
        }
    }
    return nan;
}

static PyObject *py_log_softmax(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return rowwise(args, nargs, 2, log_softmax_k);
}

static PyObject *py_softmax(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return rowwise(args, nargs, 2, softmax_k);
}

static PyObject *py_softmax_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return rowwise(args, nargs, 3, softmax_backward_k);
}

static PyObject *py_log_softmax_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return rowwise(args, nargs, 3, log_softmax_backward_k);
}

CLONES static int tanh_backward_k(const float *g, const float *y, float *out, Py_ssize_t n)
{
    int nan = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = g[i] * fmaf(-y[i], y[i], 1.0f);
        nan |= isnan(out[i]);
    }
    return nan;
}

/* tanh_backward(grad, y, out): grad * fmaf(-y, y, 1); the result says whether out has a NaN */
static PyObject *py_tanh_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Buffers b;
    float *p[3];
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "three buffers expected");
        return NULL;
    }
    if (take(&b, args, 3, -1, p) < 0)
        return NULL;
    int nan = tanh_backward_k(p[0], p[1], p[2], b.views[0].len / (Py_ssize_t)sizeof(float));
    release(&b);
    return PyBool_FromLong(nan);
}

/* nll_sum(rows, cols, x, target): nll_loss's sum over a batch with no ignored or weighted
   rows (LossNLL.cpp's loss_partial_sums, float32): 0 - x[b, target[b]] accumulated on level
   0, which flushes into the next level after b = 0 and every multiple of 16, the 8 levels
   added in order. target is int64 and in range (the caller checks). The sum as a Python
   float, or None when it is NaN (NumPy's code then gives NumPy's NaN bits). */
static PyObject *py_nll_sum(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t rows, cols;
    Py_buffer x, t;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "nll_sum(rows, cols, x, target)");
        return NULL;
    }
    if (shape2(args, &rows, &cols) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[2], &x, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[3], &t, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&x);
        return NULL;
    }
    if (x.len < rows * cols * (Py_ssize_t)sizeof(float)
            || t.len < rows * (Py_ssize_t)sizeof(int64_t)) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&t);
        PyErr_SetString(PyExc_ValueError, "buffer too small");
        return NULL;
    }
    const float *xp = (const float *)x.buf;
    const int64_t *tp = (const int64_t *)t.buf;
    float levels[8] = {0};
    for (Py_ssize_t b = 0; b < rows; b++) {
        levels[0] = levels[0] - xp[b * cols + tp[b]];
        if (b % 16 == 0)
            for (int j = 0; j < 7; j++) {
                if (b & ((Py_ssize_t)15 << (4 * j)))
                    break;
                levels[j + 1] = levels[j + 1] + levels[j];
                levels[j] = 0.0f;
            }
    }
    float acc = 0.0f;
    for (int j = 0; j < 8; j++)
        acc = acc + levels[j];
    PyBuffer_Release(&x);
    PyBuffer_Release(&t);
    if (isnan(acc))
        Py_RETURN_NONE;
    return PyFloat_FromDouble(acc);
}

#define FMA_BLOCK 512

/* one block of rows (len <= FMA_BLOCK, the rows contiguous in at's and ct's lines): the
   chains of different rows are independent, so the compiler runs them in vector lanes */
CLONES static void fma_gemm_block(const float *at, const float *bt, float *ct, Py_ssize_t m,
                                  Py_ssize_t n, Py_ssize_t k, Py_ssize_t len)
{
    for (Py_ssize_t j = 0; j < n; j++) {
        float acc[FMA_BLOCK];
        float *cj = ct + j * m;
        const float *b = bt + j * k;
        Py_ssize_t whole = len - len % 16;
        memcpy(acc, cj, (size_t)len * sizeof(float));
        for (Py_ssize_t t = 0; t < k; t++) {
            const float *row = at + t * m, y = b[t];
            for (Py_ssize_t i = 0; i < whole; i += 16)
                for (int l = 0; l < 16; l++)      /* a fixed count: one vector operation */
                    acc[i + l] = fmaf(row[i + l], y, acc[i + l]);
            for (Py_ssize_t i = whole; i < len; i++)
                acc[i] = fmaf(row[i], y, acc[i]);
        }
        memcpy(cj, acc, (size_t)len * sizeof(float));
    }
}

static int fma_gemm_k(const float *at, const float *bt, float *ct, Py_ssize_t m, Py_ssize_t n,
                      Py_ssize_t k)
{
    for (Py_ssize_t i = 0; i < m; i += FMA_BLOCK)
        fma_gemm_block(at + i, bt, ct + i, m, n, k, m - i < FMA_BLOCK ? m - i : FMA_BLOCK);
    int nan = 0;
    for (Py_ssize_t i = 0; i < m * n; i++)
        nan |= isnan(ct[i]);
    return nan;
}

/* fma_gemm(m, n, k, at, bt, ct): ct[j, i] = fmaf(at[k-1, i], bt[j, k-1], ... fmaf(at[0, i],
   bt[j, 0], ct[j, i])), one fused multiply-add after the other (oneDNN's convolution
   accumulators); at is k x m, bt n x k, ct n x m. The result says whether ct has a NaN. */
static PyObject *py_fma_gemm(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t m, n, k;
    Buffers b;
    float *p[3];
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "fma_gemm(m, n, k, at, bt, ct)");
        return NULL;
    }
    m = PyLong_AsSsize_t(args[0]);
    n = PyLong_AsSsize_t(args[1]);
    k = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred())
        return NULL;
    if (m < 0 || n < 0 || k < 0) {
        PyErr_SetString(PyExc_ValueError, "bad shape");
        return NULL;
    }
    if (take(&b, args + 3, 3, 0, p) < 0)
        return NULL;
    if (b.views[0].len / (Py_ssize_t)sizeof(float) < m * k
            || b.views[1].len / (Py_ssize_t)sizeof(float) < n * k
            || b.views[2].len / (Py_ssize_t)sizeof(float) < m * n) {
        release(&b);
        PyErr_SetString(PyExc_ValueError, "buffer too small");
        return NULL;
    }
    int nan;
    Py_BEGIN_ALLOW_THREADS
    nan = fma_gemm_k(p[0], p[1], p[2], m, n, k);
    Py_END_ALLOW_THREADS
    release(&b);
    return PyBool_FromLong(nan);
}

/* address(array): where its first element is (NumPy's arr.ctypes.data, without the
   ctypes object that builds) */
static PyObject *py_address(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_STRIDES) < 0)
        return NULL;
    void *buf = view.buf;
    PyBuffer_Release(&view);
    return PyLong_FromVoidPtr(buf);
}


/* ---------------------------------------------------------------- sums over the rows
   summation.py's _outer_sums for a float32 or float64 (rows, cols) array of any
   non-negative strides, column by column (the NumPy code adds every column with the same
   operations, element-wise across the columns): the first `grouped` columns through
   _multi_row_sum's cascade, the others through _row_sum's four interleaved partial sums.
   Strides are in elements (negative ones too). */
#define SUMS(T, SUF)                                                                          \
static T block_sum_##SUF(const T *q, Py_ssize_t stride, Py_ssize_t step)                      \
{                                                                                             \
    T s = q[0];                                                                               \
    for (Py_ssize_t r = 1; r < step; r++)                                                     \
        s = s + q[r * stride];                                                                \
    return s;                                                                                 \
}                                                                                             \
                                                                                              \
static T multi_row_sum_##SUF(const T *p, Py_ssize_t stride, Py_ssize_t size)                  \
{                                                                                             \
    if (size == 0)                                                                            \
        return (T)0;                                                                          \
    int power = 4;                                                                            \
    if (size > (1 << 16)) {                                                                   \
        int bits = 0;                                                                         \
        for (Py_ssize_t v = size - 1; v; v >>= 1)                                             \
            bits++;                                                                           \
        power = bits / 4;                                                                     \
    }                                                                                         \
    Py_ssize_t step = (Py_ssize_t)1 << power, nb = size >> power, cut = nb << power;          \
    if (nb < step) {                                                                          \
        int have = cut < size;                                                                \
        T acc = (T)0;                                                                         \
        if (have) {                                                                           \
            acc = p[cut * stride];                                                            \
            for (Py_ssize_t k = cut + 1; k < size; k++)                                       \
                acc = acc + p[k * stride];                                                    \
        }                                                                                     \
        if (nb) {                                                                             \
            T level = block_sum_##SUF(p, stride, step);                                       \
            for (Py_ssize_t b = 1; b < nb; b++)                                               \
                level = level + block_sum_##SUF(p + b * step * stride, stride, step);         \
            acc = have ? acc + level : level;                                                 \
        }                                                                                     \
        return acc + (T)0;                                                                    \
    }                                                                                         \
    T levels[4] = {(T)0, (T)0, (T)0, (T)0};                                                   \
    Py_ssize_t mask = step - 1;                                                               \
    for (Py_ssize_t b = 0; b < nb; b++) {                                                     \
        levels[0] = levels[0] + block_sum_##SUF(p + b * step * stride, stride, step);         \
        Py_ssize_t i = (b + 1) << power;                                                      \
        for (int j = 1; j < 4; j++) {                                                         \
            levels[j] = levels[j] + levels[j - 1];                                            \
            levels[j - 1] = (T)0;                                                             \
            if (i & (mask << (j * power)))                                                    \
                break;                                                                        \
        }                                                                                     \
    }                                                                                         \
    T acc = levels[0];                                                                        \
    for (Py_ssize_t k = cut; k < size; k++)                                                   \
        acc = acc + p[k * stride];                                                            \
    for (int j = 1; j < 4; j++)                                                               \
        acc = acc + levels[j];                                                                \
    return acc;                                                                               \
}                                                                                             \
                                                                                              \
static T interleaved_sum_##SUF(const T *p, Py_ssize_t stride, Py_ssize_t size)                \
{                                                                                             \
    Py_ssize_t n4 = size >> 2;                                                                \
    T partial[4] = {(T)0, (T)0, (T)0, (T)0}, acc = (T)0;                                      \
    if (n4) {                                                                                 \
        for (int j = 0; j < 4; j++)                                                           \
            partial[j] = multi_row_sum_##SUF(p + j * stride, 4 * stride, n4);                 \
        acc = partial[0];                                                                     \
    }                                                                                         \
    for (Py_ssize_t k = n4 * 4; k < size; k++)                                                \
        acc = acc + p[k * stride];                                                            \
    if (n4)                                                                                   \
        acc = acc + partial[1] + partial[2] + partial[3];                                     \
    return acc;                                                                               \
}                                                                                             \
                                                                                              \
/* The same for W columns at once (lane l: column p + l * cs), every operation lane by     \
   lane: the columns' chains of additions overlap. */                                         \
INLINE void block_sum_w_##SUF(const T *q, Py_ssize_t rs, Py_ssize_t cs, Py_ssize_t step,       \
                              T *s)                                                           \
{                                                                                             \
    for (int l = 0; l < W; l++)                                                               \
        s[l] = q[l * cs];                                                                     \
    for (Py_ssize_t r = 1; r < step; r++)                                                     \
        for (int l = 0; l < W; l++)                                                           \
            s[l] = s[l] + q[r * rs + l * cs];                                                 \
}                                                                                             \
                                                                                              \
INLINE void multi_row_sum_w_##SUF(const T *p, Py_ssize_t rs, Py_ssize_t cs, Py_ssize_t size,   \
                                  T *out)                                                     \
{                                                                                             \
    T blk[W];                                                                                 \
    if (size == 0) {                                                                          \
        for (int l = 0; l < W; l++)                                                           \
            out[l] = (T)0;                                                                    \
        return;                                                                               \
    }                                                                                         \
    int power = 4;                                                                            \
    if (size > (1 << 16)) {                                                                   \
        int bits = 0;                                                                         \
        for (Py_ssize_t v = size - 1; v; v >>= 1)                                             \
            bits++;                                                                           \
        power = bits / 4;                                                                     \
    }                                                                                         \
    Py_ssize_t step = (Py_ssize_t)1 << power, nb = size >> power, cut = nb << power;          \
    if (nb < step) {                                                                          \
        int have = cut < size;                                                                \
        T acc[W], level[W];                                                                   \
        if (have) {                                                                           \
            for (int l = 0; l < W; l++)                                                       \
                acc[l] = p[cut * rs + l * cs];                                                \
            for (Py_ssize_t k = cut + 1; k < size; k++)                                       \
                for (int l = 0; l < W; l++)                                                   \
                    acc[l] = acc[l] + p[k * rs + l * cs];                                     \
        }                                                                                     \
        if (nb) {                                                                             \
            block_sum_w_##SUF(p, rs, cs, step, level);                                        \
            for (Py_ssize_t b = 1; b < nb; b++) {                                             \
                block_sum_w_##SUF(p + b * step * rs, rs, cs, step, blk);                      \
                for (int l = 0; l < W; l++)                                                   \
                    level[l] = level[l] + blk[l];                                             \
            }                                                                                 \
            for (int l = 0; l < W; l++)                                                       \
                acc[l] = have ? acc[l] + level[l] : level[l];                                 \
        }                                                                                     \
        for (int l = 0; l < W; l++)                                                           \
            out[l] = acc[l] + (T)0;                                                           \
        return;                                                                               \
    }                                                                                         \
    T levels[4][W];                                                                           \
    for (int j = 0; j < 4; j++)                                                               \
        for (int l = 0; l < W; l++)                                                           \
            levels[j][l] = (T)0;                                                              \
    Py_ssize_t mask = step - 1;                                                               \
    for (Py_ssize_t b = 0; b < nb; b++) {                                                     \
        block_sum_w_##SUF(p + b * step * rs, rs, cs, step, blk);                              \
        for (int l = 0; l < W; l++)                                                           \
            levels[0][l] = levels[0][l] + blk[l];                                             \
        Py_ssize_t i = (b + 1) << power;                                                      \
        for (int j = 1; j < 4; j++) {                                                         \
            for (int l = 0; l < W; l++) {                                                     \
                levels[j][l] = levels[j][l] + levels[j - 1][l];                               \
                levels[j - 1][l] = (T)0;                                                      \
            }                                                                                 \
            if (i & (mask << (j * power)))                                                    \
                break;                                                                        \
        }                                                                                     \
    }                                                                                         \
    for (int l = 0; l < W; l++) {                                                             \
        T acc = levels[0][l];                                                                 \
        for (Py_ssize_t k = cut; k < size; k++)                                               \
            acc = acc + p[k * rs + l * cs];                                                   \
        for (int j = 1; j < 4; j++)                                                           \
            acc = acc + levels[j][l];                                                         \
        out[l] = acc;                                                                         \
    }                                                                                         \
}                                                                                             \
                                                                                              \
INLINE void interleaved_sum_w_##SUF(const T *p, Py_ssize_t rs, Py_ssize_t cs, Py_ssize_t size, \
                                    T *out)                                                   \
{                                                                                             \
    Py_ssize_t n4 = size >> 2;                                                                \
    T partial[4][W];                                                                          \
    for (int l = 0; l < W; l++)                                                               \
        out[l] = (T)0;                                                                        \
    if (n4) {                                                                                 \
        for (int j = 0; j < 4; j++)                                                           \
            multi_row_sum_w_##SUF(p + j * rs, 4 * rs, cs, n4, partial[j]);                    \
        for (int l = 0; l < W; l++)                                                           \
            out[l] = partial[0][l];                                                           \
    }                                                                                         \
    for (Py_ssize_t k = n4 * 4; k < size; k++)                                                \
        for (int l = 0; l < W; l++)                                                           \
            out[l] = out[l] + p[k * rs + l * cs];                                             \
    if (n4)                                                                                   \
        for (int l = 0; l < W; l++)                                                           \
            out[l] = out[l] + partial[1][l] + partial[2][l] + partial[3][l];                  \
}                                                                                             \
                                                                                              \
static int outer_sums_##SUF(const T *x, Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t rs,      \
                            Py_ssize_t cs, Py_ssize_t grouped, T *out)                        \
{                                                                                             \
    int nan = 0;                                                                              \
    Py_ssize_t c = 0;                                                                         \
    for (int part = 0; part < 2; part++) {                                                    \
        Py_ssize_t end = part ? cols : grouped;                                               \
        for (; c + W <= end; c += W) {  /* contiguous columns: cs a constant, SIMD loads */    \
            if (part && cs == 1)                                                              \
                interleaved_sum_w_##SUF(x + c, rs, 1, rows, out + c);                         \
            else if (part)                                                                    \
                interleaved_sum_w_##SUF(x + c * cs, rs, cs, rows, out + c);                   \
            else if (cs == 1)                                                                 \
                multi_row_sum_w_##SUF(x + c, rs, 1, rows, out + c);                           \
            else                                                                              \
                multi_row_sum_w_##SUF(x + c * cs, rs, cs, rows, out + c);                     \
        }                                                                                     \
        for (; c < end; c++)                                                                  \
            out[c] = part ? interleaved_sum_##SUF(x + c * cs, rs, rows)                       \
                          : multi_row_sum_##SUF(x + c * cs, rs, rows);                        \
    }                                                                                         \
    for (c = 0; c < cols; c++)                                                                \
        nan |= isnan(out[c]);                                                                 \
    return nan;                                                                               \
}

#define W 8
SUMS(float, f)
SUMS(double, d)
#undef W
#undef SUMS

/* A 2-d float32 ('f') or float64 ('d') buffer of any strides (multiples of the item size): its pointer, shape and strides in elements; -1 with an exception else. */
static int strided2(PyObject *obj, Py_buffer *view, char *kind, Py_ssize_t *shape,
                    Py_ssize_t *strides)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    *kind = f[1] == 0 && (f[0] == 'f' || f[0] == 'd') ? f[0] : 0;
    if (view->ndim != 2 || !*kind || view->itemsize != (*kind == 'f' ? 4 : 8)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "a 2-d float32 or float64 array");
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        shape[i] = view->shape[i];
        if (view->strides[i] % view->itemsize) {
            PyBuffer_Release(view);
            PyErr_SetString(PyExc_ValueError, "bad strides");
            return -1;
        }
        strides[i] = view->strides[i] / view->itemsize;
    }
    return 0;
}

/* column_sums(grouped, x, out): out[c] = column c of the 2-d array x (float32 or float64, any
   strides) summed down its rows; out a C-contiguous array of x's dtype. True when out holds
   a NaN. */
static PyObject *py_outer_sums(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t grouped, shape[2], strides[2];
    Py_buffer x, out;
    char kind;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "column_sums(grouped, x, out)");
        return NULL;
    }
    grouped = PyLong_AsSsize_t(args[0]);
    if (PyErr_Occurred())
        return NULL;
    if (strided2(args[1], &x, &kind, shape, strides) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[2], &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&x);
        return NULL;
    }
    PyObject *res = NULL;
    if (grouped < 0 || grouped > shape[1] || shape[0] < 1
            || out.len < shape[1] * (Py_ssize_t)x.itemsize) {
        PyErr_SetString(PyExc_ValueError, "bad shape");
        goto done;
    }
    int nan;
    if (kind == 'f')
        nan = outer_sums_f((const float *)x.buf, shape[0], shape[1], strides[0], strides[1],
                           grouped, (float *)out.buf);
    else
        nan = outer_sums_d((const double *)x.buf, shape[0], shape[1], strides[0], strides[1],
                           grouped, (double *)out.buf);
    res = PyBool_FromLong(nan);
done:
    PyBuffer_Release(&x);
    PyBuffer_Release(&out);
    return res;
}

/* welford(x, mean, m2): WelfordOps::reduce (reduce.py _welford_seq) over each row of the
   2-d float64 array x (any strides), its elements one after the other in double:
   delta = x - mean; mean += delta / (i + 1); m2 += delta * (x - mean). mean and m2 are
   C-contiguous float64 arrays of one slot per row. True when either holds a NaN. */
static PyObject *py_welford(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t shape[2], strides[2];
    Py_buffer x, mv, qv;
    char kind;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "welford(x, mean, m2)");
        return NULL;
    }
    if (strided2(args[0], &x, &kind, shape, strides) < 0)
        return NULL;
    if (kind != 'd') {
        PyBuffer_Release(&x);
        PyErr_SetString(PyExc_ValueError, "a float64 array");
        return NULL;
    }
    if (PyObject_GetBuffer(args[1], &mv, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&x);
        return NULL;
    }
    if (PyObject_GetBuffer(args[2], &qv, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&mv);
        return NULL;
    }
    PyObject *res = NULL;
    Py_ssize_t need = shape[0] * (Py_ssize_t)sizeof(double);
    if (mv.len < need || qv.len < need) {
        PyErr_SetString(PyExc_ValueError, "buffer too small");
        goto done;
    }
    const double *xp = (const double *)x.buf;
    double *mp = (double *)mv.buf, *qp = (double *)qv.buf;
    int nan = 0;
    /* eight rows at a time: independent chains of divisions overlap */
    for (Py_ssize_t r0 = 0; r0 < shape[0]; r0 += 8) {
        int w = shape[0] - r0 < 8 ? (int)(shape[0] - r0) : 8;
        double mean[8] = {0}, m2[8] = {0};
        const double *base = xp + r0 * strides[0];
        for (Py_ssize_t i = 0; i < shape[1]; i++) {
            const double *col = base + i * strides[1];
            double count = (double)(i + 1);
            for (int j = 0; j < w; j++) {
                double v = col[j * strides[0]];
                double delta = v - mean[j];
                mean[j] = mean[j] + delta / count;
                m2[j] = m2[j] + delta * (v - mean[j]);
            }
        }
        for (int j = 0; j < w; j++) {
            mp[r0 + j] = mean[j];
            qp[r0 + j] = m2[j];
            nan |= isnan(mean[j]) | isnan(m2[j]);
        }
    }
    res = PyBool_FromLong(nan);
done:
    PyBuffer_Release(&x);
    PyBuffer_Release(&mv);
    PyBuffer_Release(&qv);
    return res;
}

/* add_rows(n, inner, rows, g, z): xp.scatter's embedding backward, np.add.at(z, (rows,), g)
   for float32: row rows[i] of z (int64, z holding zrows rows of `inner`) gets row i of g
   added, i in order, so every element receives its values in np.add.at's order. -1 when a
   row number is out of range (nothing is written then: the Python side checks first), else
   whether z holds a NaN. */
static PyObject *py_add_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n, inner;
    Py_buffer r, g, z;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "add_rows(n, inner, rows, g, z)");
        return NULL;
    }
    if (shape2(args, &n, &inner) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[2], &r, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[3], &g, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&r);
        return NULL;
    }
    if (PyObject_GetBuffer(args[4], &z, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&r);
        PyBuffer_Release(&g);
        return NULL;
    }
    PyObject *res = NULL;
    if (r.len < n * (Py_ssize_t)sizeof(int64_t) || g.len < n * inner * (Py_ssize_t)sizeof(float)) {
        PyErr_SetString(PyExc_ValueError, "buffer too small");
        goto done;
    }
    const int64_t *rp = (const int64_t *)r.buf;
    const float *gp = (const float *)g.buf;
    float *zp = (float *)z.buf;
    Py_ssize_t zrows = z.len / (Py_ssize_t)sizeof(float) / inner;
    for (Py_ssize_t i = 0; i < n; i++)
        if (rp[i] < 0 || rp[i] >= zrows) {
            res = PyLong_FromLong(-1);
            goto done;
        }
    for (Py_ssize_t i = 0; i < n; i++) {
        float *dst = zp + rp[i] * inner;
        const float *src = gp + i * inner;
        for (Py_ssize_t j = 0; j < inner; j++)
            dst[j] = dst[j] + src[j];
    }
    int nan = 0;
    for (Py_ssize_t k = 0; k < zrows * inner; k++)
        nan |= isnan(zp[k]);
    res = PyLong_FromLong(nan);
done:
    PyBuffer_Release(&r);
    PyBuffer_Release(&g);
    PyBuffer_Release(&z);
    return res;
}

/* ---------------------------------------------------------------- float64: Sleef's double functions

   PyTorch's Vectorized<double> (4 lanes on AVX2, 8 on AVX512) computes exp, log, expm1,
   log1p, sinh, cosh, tanh, exp2, atanh, pow, atan2, hypot and erf with Sleef's
   Sleef_<name>d4_u10 / d8_u10 (src/libm/sleefsimddp.c: xexp, xlog_u1, xexpm1, xlog1p,
   xsinh, xcosh, xtanh, xexp2, xatanh, xpow, xatan2_u1, xhypot_u05, xerf_u1; Sleef is
   Copyright Naoki Shibata and contributors, Boost Software License 1.0). Written here lane
   by lane from the published algorithms: double-double arithmetic with fused multiply-adds
   (FMA builds, as both AVX2 and AVX512), every fma() rounded once. The AVX512 build takes
   the exponent and mantissa with getexp/getmant where AVX2 reads the bits: the same values
   for every finite input, so one code serves both widths. */

typedef struct { double x, y; } d2;

INLINE uint64_t bits64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
INLINE double from64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
INLINE d2 mk(double x, double y) { d2 r = {x, y}; return r; }
/* _mm256_cvtpd_epi32 of an integral value: INT32_MIN out of range and for NaN */
INLINE int32_t cvt_i32(double u) { return (u >= -2147483648.0 && u < 2147483648.0) ? (int32_t)u : INT32_MIN; }
INLINE double pow2i64(int32_t q) { return from64((uint64_t)(((uint32_t)q + 0x3ffu) << 20) << 32); }
INLINE double ldexp2k(double d, int32_t e) { int32_t h = e >> 1; return d * pow2i64(h) * pow2i64(e - h); }
INLINE double ldexp3k(double d, int32_t q) { return from64(bits64(d) + ((uint64_t)((uint32_t)q << 20) << 32)); }
INLINE int32_t ilogb2k(double d) { return (int32_t)((bits64(d) >> 52) & 0x7ff) - 0x3ff; }
INLINE int32_t ilogbk(double d)
{
    int o = d < 4.9090934652977266E-91;
    if (o) d = 2.037035976334486E90 * d;
    int32_t q = (int32_t)(((uint32_t)(bits64(d) >> 32) & (0xfffu << 20)) >> 20);
    return q - (o ? 300 + 0x3ff : 0x3ff);
}
INLINE double mulsign(double x, double y) { return from64(bits64(x) ^ (bits64(y) & 0x8000000000000000ull)); }
INLINE double vmax(double x, double y) { return x > y ? x : y; }     /* _mm256_max_pd */
INLINE double vmin(double x, double y) { return x < y ? x : y; }
INLINE int visint(double d) { return nearbyint(d) == d; }
INLINE int visodd(double d) { double x = d * 0.5; return nearbyint(x) != x; }
#define NAN_ALL from64(~0ull)     /* a mask of ones or'ed in: a NaN */

INLINE d2 dd_norm(d2 t) { double s = t.x + t.y; return mk(s, (t.x - s) + t.y); }
INLINE d2 dd_scale(d2 d, double s) { return mk(d.x * s, d.y * s); }
INLINE d2 dd_neg(d2 x) { return mk(-x.x, -x.y); }
INLINE d2 dd_abs(d2 x) { return mk(fabs(x.x), from64(bits64(x.y) ^ (bits64(x.x) & 0x8000000000000000ull))); }
INLINE d2 dd_add_dd(double x, double y) { double s = x + y; return mk(s, (x - s) + y); }
INLINE d2 dd_add2_dd(double x, double y) { double s = x + y, v = s - x; return mk(s, (x - (s - v)) + (y - v)); }
INLINE d2 dd_add_Dd(d2 x, double y) { double s = x.x + y; return mk(s, ((x.x - s) + y) + x.y); }
INLINE d2 dd_add2_Dd(d2 x, double y)
{
    double s = x.x + y, v = s - x.x;
    double w = (x.x - (s - v)) + (y - v);
    return mk(s, w + x.y);
}
INLINE d2 dd_add_dD(double x, d2 y) { double s = x + y.x; return mk(s, ((x - s) + y.x) + y.y); }
INLINE d2 dd_add2_dD(double x, d2 y)
{
    double s = x + y.x, v = s - x;
    return mk(s, ((x - (s - v)) + (y.x - v)) + y.y);
}
INLINE d2 dd_add_DD(d2 x, d2 y) { double s = x.x + y.x; return mk(s, (((x.x - s) + y.x) + x.y) + y.y); }
INLINE d2 dd_add2_DD(d2 x, d2 y)
{
    double s = x.x + y.x, v = s - x.x;
    double t = (x.x - (s - v)) + (y.x - v);
    return mk(s, t + (x.y + y.y));
}
INLINE d2 dd_sub_DD(d2 x, d2 y)
{
    double s = x.x - y.x;
    double t = ((x.x - s) - y.x) + x.y;
    return mk(s, t - y.y);
}
INLINE d2 dd_div(d2 n, d2 d)
{
    double t = 1.0 / d.x, s = n.x * t;
    double u = fma(t, n.x, -s);
    double v = fma(-d.y, t, fma(-d.x, t, 1.0));
    return mk(s, fma(s, v, fma(n.y, t, u)));
}
INLINE d2 dd_mul_dd(double x, double y) { double s = x * y; return mk(s, fma(x, y, -s)); }
INLINE d2 dd_squ(d2 x) { double s = x.x * x.x; return mk(s, fma(x.x + x.x, x.y, fma(x.x, x.x, -s))); }
INLINE d2 dd_mul_DD(d2 x, d2 y)
{
    double s = x.x * y.x;
    return mk(s, fma(x.x, y.y, fma(x.y, y.x, fma(x.x, y.x, -s))));
}
INLINE d2 dd_mul_Dd(d2 x, double y) { double s = x.x * y; return mk(s, fma(x.y, y, fma(x.x, y, -s))); }
INLINE d2 dd_rec_d(double d) { double s = 1.0 / d; return mk(s, s * fma(-d, s, 1.0)); }
INLINE d2 dd_rec_D(d2 d) { double s = 1.0 / d.x; return mk(s, s * fma(-d.y, s, fma(-d.x, s, 1.0))); }
INLINE d2 dd_sqrt_D(d2 d)
{
    double t = sqrt(d.x + d.y);
    return dd_scale(dd_mul_DD(dd_add2_DD(d, dd_mul_dd(t, t)), dd_rec_d(t)), 0.5);
}

/* Estrin's scheme as Sleef's POLYn macros nest it, each step one fma */
#define P2(x, c1, c0) fma(x, c1, c0)
#define P3(x, x2, c2, c1, c0) fma(x2, c2, P2(x, c1, c0))
#define P4(x, x2, c3, c2, c1, c0) fma(x2, P2(x, c3, c2), P2(x, c1, c0))
#define P5(x, x2, x4, c4, c3, c2, c1, c0) fma(x4, c4, P4(x, x2, c3, c2, c1, c0))
#define P7(x, x2, x4, c6, c5, c4, c3, c2, c1, c0) fma(x4, P3(x, x2, c6, c5, c4), P4(x, x2, c3, c2, c1, c0))
#define P8(x, x2, x4, c7, c6, c5, c4, c3, c2, c1, c0) \
    fma(x4, P4(x, x2, c7, c6, c5, c4), P4(x, x2, c3, c2, c1, c0))
#define P9(x, x2, x4, x8, c8, c7, c6, c5, c4, c3, c2, c1, c0) \
    fma(x8, c8, P8(x, x2, x4, c7, c6, c5, c4, c3, c2, c1, c0))
#define P10(x, x2, x4, x8, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0) \
    fma(x8, P2(x, c9, c8), P8(x, x2, x4, c7, c6, c5, c4, c3, c2, c1, c0))
#define P16(x, x2, x4, x8, cf, ce, cd, cc, cb, ca, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0) \
    fma(x8, P8(x, x2, x4, cf, ce, cd, cc, cb, ca, c9, c8), P8(x, x2, x4, c7, c6, c5, c4, c3, c2, c1, c0))
#define P19(x, x2, x4, x8, x16, d2_, d1, d0, cf, ce, cd, cc, cb, ca, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0) \
    fma(x16, P3(x, x2, d2_, d1, d0), P16(x, x2, x4, x8, cf, ce, cd, cc, cb, ca, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0))
#define P21(x, x2, x4, x8, x16, d4, d3, d2_, d1, d0, cf, ce, cd, cc, cb, ca, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0) \
    fma(x16, P5(x, x2, x4, d4, d3, d2_, d1, d0), \
        P16(x, x2, x4, x8, cf, ce, cd, cc, cb, ca, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0))

#define D_L2U .69314718055966295651160180568695068359375
#define D_L2L .28235290563031577122588448175013436025525412068e-12
#define D_R_LN2 1.442695040888963407359924681001892137426645954152985934135449406931
#define D_LOG_DBL_MAX 0x1.62e42fefa39efp+9
#define D_LN2_HI 0.693147180559945286226764
#define D_LN2_LO 2.319046813846299558417771e-17

INLINE double sl_exp(double d)
{
    double u = nearbyint(d * D_R_LN2);
    int32_t q = cvt_i32(u);
    double s = fma(u, -D_L2U, d);
    s = fma(u, -D_L2L, s);
    double s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
    u = P10(s, s2, s4, s8, +0.2081276378237164457e-8, +0.2511210703042288022e-7, +0.2755762628169491192e-6,
            +0.2755723402025388239e-5, +0.2480158687479686264e-4, +0.1984126989855865850e-3,
            +0.1388888888914497797e-2, +0.8333333333314938210e-2, +0.4166666666666602598e-1,
            +0.1666666666666669072e+0);
    u = fma(u, s, 0.5);
    u = fma(u, s, 1.0);
    u = fma(u, s, 1.0);
    u = ldexp2k(u, q);
    if (d > D_LOG_DBL_MAX) u = INFINITY;
    if (d < -1000) u = 0.0;
    return u;
}

/* the exponent and mantissa of log's argument: d = m * 2**e, m in [0.75, 1.5) */
INLINE double log_split(double d, int32_t *ep)
{
    int o = d < 0x1p-1022;
    if (o) d = d * ((double)(INT64_C(1) << 32) * (double)(INT64_C(1) << 32));
    int32_t e = ilogb2k(d * (1.0 / 0.75));
    double m = ldexp3k(d, -e);
    *ep = o ? e - 64 : e;
    return m;
}

INLINE double sl_log(double d)
{
    int32_t e;
    double m = log_split(d, &e);
    d2 x = dd_div(dd_add2_dd(-1, m), dd_add2_dd(1, m));
    double x2 = x.x * x.x, x4 = x2 * x2, x8 = x4 * x4;
    double t = P7(x2, x4, x8, 0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0,
                  0.2222214519839380009e+0, 0.2857142932794299317e+0, 0.3999999999635251990e+0,
                  0.6666666666667333541e+0);
    d2 s = dd_mul_Dd(mk(D_LN2_HI, D_LN2_LO), (double)e);
    s = dd_add_DD(s, dd_scale(x, 2));
    s = dd_add_Dd(s, x2 * x.x * t);
    double r = s.x + s.y;
    if (isinf(d) && d > 0) r = INFINITY;
    if (d < 0 || isnan(d)) r = NAN;
    if (d == 0) r = -INFINITY;
    return r;
}

INLINE d2 sl_logk(double d)
{
    int32_t e;
    double m = log_split(d, &e);
    d2 x = dd_div(dd_add2_dd(-1, m), dd_add2_dd(1, m));
    d2 x2 = dd_squ(x);
    double x4 = x2.x * x2.x, x8 = x4 * x4, x16 = x8 * x8;
    double t = P9(x2.x, x4, x8, x16, 0.116255524079935043668677, 0.103239680901072952701192,
                  0.117754809412463995466069, 0.13332981086846273921509, 0.153846227114512262845736,
                  0.181818180850050775676507, 0.222222222230083560345903, 0.285714285714249172087875,
                  0.400000000000000077715612);
    d2 c = mk(0.666666666666666629659233, 3.80554962542412056336616e-17);
    d2 s = dd_mul_Dd(mk(D_LN2_HI, D_LN2_LO), (double)e);
    s = dd_add_DD(s, dd_scale(x, 2));
    x = dd_mul_DD(x2, x);
    s = dd_add_DD(s, dd_mul_DD(x, c));
    x = dd_mul_DD(x2, x);
    s = dd_add_DD(s, dd_mul_Dd(x, t));
    return s;
}

INLINE double sl_expk(d2 d)
{
    double u = (d.x + d.y) * D_R_LN2;
    double dq = nearbyint(u);
    int32_t q = cvt_i32(dq);
    d2 s = dd_add2_Dd(d, dq * -D_L2U);
    s = dd_add2_Dd(s, dq * -D_L2L);
    s = dd_norm(s);
    double s2 = s.x * s.x, s4 = s2 * s2, s8 = s4 * s4;
    u = P10(s.x, s2, s4, s8, 2.51069683420950419527139e-08, 2.76286166770270649116855e-07,
            2.75572496725023574143864e-06, 2.48014973989819794114153e-05, 0.000198412698809069797676111,
            0.0013888888939977128960529, 0.00833333333332371417601081, 0.0416666666665409524128449,
            0.166666666666666740681535, 0.500000000000000999200722);
    d2 t = dd_add_dD(1, s);
    t = dd_add_DD(t, dd_mul_Dd(dd_squ(s), u));
    u = ldexp2k(t.x + t.y, q);
    if (d.x < -1000) u = 0.0;
    return u;
}

INLINE d2 sl_expk2(d2 d)
{
    double u = (d.x + d.y) * D_R_LN2;
    double dq = nearbyint(u);
    int32_t q = cvt_i32(dq);
    d2 s = dd_add2_Dd(d, dq * -D_L2U);
    s = dd_add2_Dd(s, dq * -D_L2L);
    d2 s2 = dd_squ(s), s4 = dd_squ(s2);
    double s8 = s4.x * s4.x;
    u = P10(s.x, s2.x, s4.x, s8, +0.1602472219709932072e-9, +0.2092255183563157007e-8, +0.2505230023782644465e-7,
            +0.2755724800902135303e-6, +0.2755731892386044373e-5, +0.2480158735605815065e-4,
            +0.1984126984148071858e-3, +0.1388888888886763255e-2, +0.8333333333333347095e-2,
            +0.4166666666666669905e-1);
    d2 t = dd_add_dD(0.5, dd_mul_Dd(s, +0.1666666666666666574e+0));
    t = dd_add_dD(1.0, dd_mul_DD(t, s));
    t = dd_add_dD(1.0, dd_mul_DD(t, s));
    t = dd_add_DD(t, dd_mul_Dd(s4, u));
    t.x = ldexp2k(t.x, q);
    t.y = ldexp2k(t.y, q);
    if (d.x < -1000) t.x = t.y = 0.0;
    return t;
}

INLINE double sl_expm1(double a)
{
    d2 d = dd_add2_Dd(sl_expk2(mk(a, 0)), -1.0);
    double x = d.x + d.y;
    if (a > 709.782712893383996732223) x = INFINITY;
    if (a < -36.736800569677101399113302437) x = -1;
    if (a == 0 && signbit(a)) x = -0.0;
    return x;
}

INLINE double sl_sinh(double x)
{
    double y = fabs(x);
    d2 d = sl_expk2(mk(y, 0));
    d = dd_sub_DD(d, dd_rec_D(d));
    y = (d.x + d.y) * 0.5;
    if (fabs(x) > 710 || isnan(y)) y = INFINITY;
    y = mulsign(y, x);
    return isnan(x) ? NAN_ALL : y;
}

INLINE double sl_cosh(double x)
{
    double y = fabs(x);
    d2 d = sl_expk2(mk(y, 0));
    d = dd_add_DD(d, dd_rec_D(d));
    y = (d.x + d.y) * 0.5;
    if (fabs(x) > 710 || isnan(y)) y = INFINITY;
    return isnan(x) ? NAN_ALL : y;
}

INLINE double sl_tanh(double x)
{
    double y = fabs(x);
    d2 d = sl_expk2(mk(y, 0));
    d2 e = dd_rec_D(d);
    d = dd_div(dd_add2_DD(d, dd_neg(e)), dd_add2_DD(d, e));
    y = d.x + d.y;
    if (fabs(x) > 18.714973875 || isnan(y)) y = 1.0;
    y = mulsign(y, x);
    return isnan(x) ? NAN_ALL : y;
}

INLINE d2 sl_logk2(d2 d)
{
    int32_t e = ilogbk(d.x * (1.0 / 0.75));
    d2 m = mk(ldexp2k(d.x, -e), ldexp2k(d.y, -e));
    d2 x = dd_div(dd_add2_Dd(m, -1), dd_add2_Dd(m, 1));
    d2 x2 = dd_squ(x);
    double x4 = x2.x * x2.x, x8 = x4 * x4;
    double t = P7(x2.x, x4, x8, 0.13860436390467167910856, 0.131699838841615374240845, 0.153914168346271945653214,
                  0.181816523941564611721589, 0.22222224632662035403996, 0.285714285511134091777308,
                  0.400000000000914013309483);
    t = fma(t, x2.x, 0.666666666666664853302393);
    d2 s = dd_mul_Dd(mk(D_LN2_HI, D_LN2_LO), (double)e);
    s = dd_add_DD(s, dd_scale(x, 2));
    s = dd_add_DD(s, dd_mul_Dd(dd_mul_DD(x2, x), t));
    return s;
}

INLINE double sl_atanh(double x)
{
    double y = fabs(x);
    d2 d = sl_logk2(dd_div(dd_add2_dd(1, y), dd_add2_dd(1, -y)));
    double r = y == 1.0 ? INFINITY : (d.x + d.y) * 0.5;
    if (y > 1.0) r = NAN_ALL;
    r = mulsign(r, x);
    if (isinf(x) || isnan(r)) r = NAN_ALL;
    if (isnan(x)) r = NAN_ALL;
    return r;
}

INLINE double sl_exp2(double d)
{
    double u = nearbyint(d);
    int32_t q = cvt_i32(u);
    double s = d - u;
    double s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
    u = P10(s, s2, s4, s8, +0.4434359082926529454e-9, +0.7073164598085707425e-8, +0.1017819260921760451e-6,
            +0.1321543872511327615e-5, +0.1525273353517584730e-4, +0.1540353045101147808e-3,
            +0.1333355814670499073e-2, +0.9618129107597600536e-2, +0.5550410866482046596e-1,
            +0.2402265069591012214e+0);
    u = fma(u, s, +0.6931471805599452862e+0);
    u = fma(u, s, 1.0);
    u = ldexp2k(u, q);
    if (d >= 1024) u = INFINITY;
    if (d < -2000) u = 0.0;
    return u;
}

#define D_LOG1P_BOUND 0x1.c7b1f3cac7433p+1019

INLINE double sl_log1p(double d)
{
    double dp1 = d + 1;
    int o = dp1 < 0x1p-1022;
    if (o) dp1 = dp1 * ((double)(INT64_C(1) << 32) * (double)(INT64_C(1) << 32));
    int32_t e = ilogb2k(dp1 * (1.0 / 0.75));
    double t = ldexp3k(1.0, -e);
    double m = fma(d, t, t - 1);
    if (o) e -= 64;
    d2 s = dd_mul_Dd(mk(D_LN2_HI, D_LN2_LO), (double)e);
    d2 x = dd_div(mk(m, 0), dd_add_dd(2, m));
    double x2 = x.x * x.x, x4 = x2 * x2, x8 = x4 * x4;
    t = P7(x2, x4, x8, 0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0,
           0.2222214519839380009e+0, 0.2857142932794299317e+0, 0.3999999999635251990e+0,
           0.6666666666667333541e+0);
    s = dd_add_DD(s, dd_scale(x, 2));
    s = dd_add_Dd(s, x2 * x.x * t);
    double r = s.x + s.y;
    if (!(d <= D_LOG1P_BOUND)) r = sl_log(d);
    if (d < -1 || isnan(d)) r = NAN;
    if (d == -1) r = -INFINITY;
    if (d == 0 && signbit(d)) r = -0.0;
    return r;
}

INLINE double sl_pow(double x, double y)
{
    int yisint = visint(y), yisodd = visodd(y) && yisint;
    d2 d = dd_mul_Dd(sl_logk(fabs(x)), y);
    double result = sl_expk(d);
    if (d.x > D_LOG_DBL_MAX) result = INFINITY;
    result = result * (x > 0 ? 1.0 : (yisint ? (yisodd ? -1.0 : 1.0) : NAN));
    double efx = mulsign(fabs(x) - 1, y);
    if (isinf(y)) result = efx < 0.0 ? 0.0 : (efx == 0.0 ? 1.0 : INFINITY);
    if (isinf(x) || x == 0.0)
        result = mulsign((signbit(y) != 0) != (x == 0.0) ? 0.0 : INFINITY, yisodd ? x : 1.0);
    if (isnan(x) || isnan(y)) result = NAN_ALL;
    if (y == 0 || x == 1) result = 1.0;
    return result;
}

INLINE d2 sl_atan2k_u1(d2 y, d2 x)
{
    int32_t q = signbit(x.x) ? -2 : 0;
    if (x.x < 0) { x.x = -x.x; x.y = -x.y; }
    if (x.x < y.x) q += 1;
    int p = x.x < y.x;
    d2 s = p ? dd_neg(x) : y;
    d2 t = p ? y : x;
    s = dd_div(s, t);
    t = dd_squ(s);
    t = dd_norm(t);
    double t2 = t.x * t.x, t4 = t2 * t2, t8 = t4 * t4;
    double u = P16(t.x, t2, t4, t8, 1.06298484191448746607415e-05, -0.000125620649967286867384336,
                   0.00070557664296393412389774, -0.00251865614498713360352999, 0.00646262899036991172313504,
                   -0.0128281333663399031014274, 0.0208024799924145797902497, -0.0289002344784740315686289,
                   0.0359785005035104590853656, -0.041848579703592507506027, 0.0470843011653283988193763,
                   -0.0524914210588448421068719, 0.0587946590969581003860434, -0.0666620884778795497194182,
                   0.0769225330296203768654095, -0.0909090442773387574781907);
    u = fma(u, t.x, 0.111111108376896236538123);
    u = fma(u, t.x, -0.142857142756268568062339);
    u = fma(u, t.x, 0.199999999997977351284817);
    u = fma(u, t.x, -0.333333333333317605173818);
    t = dd_add_DD(s, dd_mul_Dd(dd_mul_DD(s, t), u));
    t = dd_add_DD(dd_mul_Dd(mk(1.570796326794896557998982, 6.12323399573676603586882e-17), (double)q), t);
    return t;
}

/* visinf2: m with d's sign where d is infinite, else 0 */
INLINE double visinf2(double d, double m)
{
    return isinf(d) ? from64((bits64(d) & 0x8000000000000000ull) | bits64(m)) : 0.0;
}

INLINE double sl_atan2(double y, double x)
{
    if (fabs(x) < 5.5626846462680083984e-309) {
        x = x * (double)(UINT64_C(1) << 53);
        y = y * (double)(UINT64_C(1) << 53);
    }
    d2 d = sl_atan2k_u1(mk(fabs(y), 0), mk(x, 0));
    double r = d.x + d.y;
    r = mulsign(r, x);
    if (isinf(x) || x == 0) r = M_PI / 2 - visinf2(x, mulsign(M_PI / 2, x));
    if (isinf(y)) r = M_PI / 2 - visinf2(x, mulsign(M_PI / 4, x));
    if (y == 0.0) r = signbit(x) ? M_PI : 0.0;
    r = (isnan(x) || isnan(y)) ? NAN_ALL : mulsign(r, y);
    return r;
}

INLINE double sl_hypot(double x, double y)
{
    x = fabs(x);
    y = fabs(y);
    double mn = vmin(x, y), n = mn;
    double mx = vmax(x, y), d = mx;
    if (mx < 0x1p-1022) {
        n = n * (double)(UINT64_C(1) << 54);
        d = d * (double)(UINT64_C(1) << 54);
    }
    d2 t = dd_div(mk(n, 0), mk(d, 0));
    t = dd_mul_Dd(dd_sqrt_D(dd_add2_Dd(dd_squ(t), 1)), mx);
    double ret = t.x + t.y;
    if (isnan(ret)) ret = INFINITY;
    if (mn == 0) ret = mx;
    if (isnan(x) || isnan(y)) ret = NAN;
    if (x == INFINITY || y == INFINITY) ret = INFINITY;
    return ret;
}

INLINE d2 poly2dd(double x, double c1, d2 c0) { return dd_add_DD(c0, dd_mul_Dd(mk(c1, 0), x)); }
INLINE d2 poly2dd_b(double x, d2 c1, d2 c0) { return dd_add_DD(c0, dd_mul_Dd(c1, x)); }
INLINE d2 poly4dd(double x, double c3, d2 c2, d2 c1, d2 c0)
{
    return dd_add_DD(poly2dd_b(x, c1, c0), dd_mul_Dd(poly2dd(x, c3, c2), x * x));
}

INLINE double sl_erf(double a)
{
    double x = fabs(a);
    double x2 = x * x, x4 = x2 * x2, x8 = x4 * x4, x16 = x8 * x8;
    d2 t2;
    if (x <= 2.5) {     /* Abramowitz and Stegun */
        double t = P21(x, x2, x4, x8, x16, -0.2083271002525222097e-14, +0.7151909970790897009e-13,
                       -0.1162238220110999364e-11, +0.1186474230821585259e-10, -0.8499973178354613440e-10,
                       +0.4507647462598841629e-9, -0.1808044474288848915e-8, +0.5435081826716212389e-8,
                       -0.1143939895758628484e-7, +0.1215442362680889243e-7, +0.1669878756181250355e-7,
                       -0.9808074602255194288e-7, +0.1389000557865837204e-6, +0.2945514529987331866e-6,
                       -0.1842918273003998283e-5, +0.3417987836115362136e-5, +0.3860236356493129101e-5,
                       -0.3309403072749947546e-4, +0.1060862922597579532e-3, +0.2323253155213076174e-3,
                       +0.1490149719145544729e-3);
        t2 = poly4dd(x, t, mk(0.0092877958392275604405, 7.9287559463961107493e-19),
                     mk(0.042275531758784692937, 1.3785226620501016138e-19),
                     mk(0.07052369794346953491, 9.5846628070792092842e-19));
        t2 = dd_add_dD(1, dd_mul_Dd(t2, x));
        t2 = dd_squ(t2);
        t2 = dd_squ(t2);
        t2 = dd_squ(t2);
        t2 = dd_squ(t2);
        t2 = dd_rec_D(t2);
    } else {
        double t = P21(x, x2, x4, x8, x16, -0.4024015130752621932e-18, +0.3847193332817048172e-16,
                       -0.1749316241455644088e-14, +0.5029618322872872715e-13, -0.1025221466851463164e-11,
                       +0.1573695559331945583e-10, -0.1884658558040203709e-9, +0.1798167853032159309e-8,
                       -0.1380745342355033142e-7, +0.8525705726469103499e-7, -0.4160448058101303405e-6,
                       +0.1517272660008588485e-5, -0.3341634127317201697e-5, -0.2515023395879724513e-5,
                       +0.6539731269664907554e-4, -0.3551065097428388658e-3, +0.1210736097958368864e-2,
                       -0.2605566912579998680e-2, +0.1252823202436093193e-2, +0.1820191395263313222e-1,
                       -0.1021557155453465954e+0);
        t2 = poly4dd(x, t, mk(-0.63691044383641748361, -2.4249477526539431839e-17),
                     mk(-1.1282926061803961737, -6.2970338860410996505e-17),
                     mk(-1.2261313785184804967e-05, -5.5329707514490107044e-22));
        t2 = mk(sl_expk(t2), 0);
    }
    t2 = dd_add2_Dd(t2, -1);
    double z = -(t2.x + t2.y);
    if (x < 1e-8) z = x * 1.12837916709551262756245475959;
    if (x >= 6) z = 1;
    if (isinf(a)) z = 1;
    if (a == 0) z = 0;
    return mulsign(z, a);
}

/* _mm256_cvttpd_epi32: truncated, INT32_MIN out of range and for NaN */
INLINE int32_t cvtt_i32(double u) { return (u > -2147483649.0 && u < 2147483648.0) ? (int32_t)u : INT32_MIN; }

INLINE d2 sl_sinpik(double d)
{
    double u = d * 4.0;
    int32_t q = cvtt_i32(u);
    q = (int32_t)(((uint32_t)q + (((uint32_t)q >> 31) ^ 1u)) & ~1u);
    int o = (q & 2) == 2;
    double s = u - (double)q, t = s;
    s = s * s;
    d2 s2 = dd_mul_dd(t, t);
    u = o ? 9.94480387626843774090208e-16 : -2.02461120785182399295868e-14;
    u = fma(u, s, o ? -3.89796226062932799164047e-13 : 6.948218305801794613277840e-12);
    u = fma(u, s, o ? 1.150115825399960352669010e-10 : -1.75724749952853179952664e-09);
    u = fma(u, s, o ? -2.46113695010446974953590e-08 : 3.133616889668683928784220e-07);
    u = fma(u, s, o ? 3.590860448590527540050620e-06 : -3.65762041821615519203610e-05);
    u = fma(u, s, o ? -0.000325991886927389905997954 : 0.0024903945701927185027435600);
    d2 x = dd_add2_dD(u * s, o ? mk(0.0158543442438155018914259, -1.04693272280631521908845e-18)
                                : mk(-0.0807455121882807852484731, 3.61852475067037104849987e-18));
    x = dd_add2_DD(dd_mul_DD(s2, x), o ? mk(-0.308425137534042437259529, -1.95698492133633550338345e-17)
                                       : mk(0.785398163397448278999491, 3.06287113727155002607105e-17));
    x = dd_mul_DD(x, o ? s2 : mk(t, 0));
    if (o) x = dd_add2_Dd(x, 1);
    if ((q & 4) == 4) {
        x.x = from64(bits64(x.x) ^ 0x8000000000000000ull);
        x.y = from64(bits64(x.y) ^ 0x8000000000000000ull);
    }
    return x;
}

#define SEL3(c2, c0, c1) (o2 ? (c2) : o0 ? (c0) : (c1))

/* Sleef's gammak: lgamma = clc + log|ratio|, as double-doubles */
INLINE void sl_gammak(double a, d2 *clc_out, d2 *ratio)
{
    d2 clc, clln = mk(1, 0), clld = mk(1, 0), x, y, z;
    double t, u;
    int otiny = fabs(a) < 1e-306, oref = a < 0.5;
    x = otiny ? mk(0, 0) : oref ? dd_add2_dd(1, -a) : mk(a, 0);
    int o0 = 0.5 <= x.x && x.x <= 1.1, o2 = 2.3 <= x.x;
    y = dd_norm(dd_mul_DD(dd_add2_Dd(x, 1), x));
    y = dd_norm(dd_mul_DD(dd_add2_Dd(x, 2), y));
    y = dd_norm(dd_mul_DD(dd_add2_Dd(x, 3), y));
    y = dd_norm(dd_mul_DD(dd_add2_Dd(x, 4), y));
    int o = o2 && x.x <= 7;
    if (o) {
        clln = y;
        x = dd_add2_Dd(x, 5);
    }
    t = o2 ? 1.0 / x.x : dd_norm(dd_add2_Dd(x, o0 ? -1 : -2)).x;
    u = SEL3(-156.801412704022726379848862, +0.2947916772827614196e+2, +0.7074816000864609279e-7);
    u = fma(u, t, SEL3(+1.120804464289911606838558160000, +0.1281459691827820109e+3, +0.4009244333008730443e-6));
    u = fma(u, t, SEL3(+13.39798545514258921833306020000, +0.2617544025784515043e+3, +0.1040114641628246946e-5));
    u = fma(u, t, SEL3(-0.116546276599463200848033357000, +0.3287022855685790432e+3, +0.1508349150733329167e-5));
    u = fma(u, t, SEL3(-1.391801093265337481495562410000, +0.2818145867730348186e+3, +0.1288143074933901020e-5));
    u = fma(u, t, SEL3(+0.015056113040026424412918973400, +0.1728670414673559605e+3, +0.4744167749884993937e-6));
    u = fma(u, t, SEL3(+0.179540117061234856098844714000, +0.7748735764030416817e+2, -0.6554816306542489902e-7));
    u = fma(u, t, SEL3(-0.002481743600264997730942489280, +0.2512856643080930752e+2, -0.3189252471452599844e-6));
    u = fma(u, t, SEL3(-0.029527880945699120504851034100, +0.5766792106140076868e+1, +0.1358883821470355377e-6));
    u = fma(u, t, SEL3(+0.000540164767892604515196325186, +0.7270275473996180571e+0, -0.4343931277157336040e-6));
    u = fma(u, t, SEL3(+0.006403362833808069794787256200, +0.8396709124579147809e-1, +0.9724785897406779555e-6));
    u = fma(u, t, SEL3(-0.000162516262783915816896611252, -0.8211558669746804595e-1, -0.2036886057225966011e-5));
    u = fma(u, t, SEL3(-0.001914438498565477526465972390, +0.6828831828341884458e-1, +0.4373363141819725815e-5));
    u = fma(u, t, SEL3(+7.20489541602001055898311517e-05, -0.7712481339961671511e-1, -0.9439951268304008677e-5));
    u = fma(u, t, SEL3(+0.000839498720672087279971000786, +0.8337492023017314957e-1, +0.2050727030376389804e-4));
    u = fma(u, t, SEL3(-5.17179090826059219329394422e-05, -0.9094964931456242518e-1, -0.4492620183431184018e-4));
    u = fma(u, t, SEL3(-0.000592166437353693882857342347, +0.1000996313575929358e+0, +0.9945751236071875931e-4));
    u = fma(u, t, SEL3(+6.97281375836585777403743539e-05, -0.1113342861544207724e+0, -0.2231547599034983196e-3));
    u = fma(u, t, SEL3(+0.000784039221720066627493314301, +0.1255096673213020875e+0, +0.5096695247101967622e-3));
    u = fma(u, t, SEL3(-0.000229472093621399176949318732, -0.1440498967843054368e+0, -0.1192753911667886971e-2));
    u = fma(u, t, SEL3(-0.002681327160493827160473958490, +0.1695571770041949811e+0, +0.2890510330742210310e-2));
    u = fma(u, t, SEL3(+0.003472222222222222222175164840, -0.2073855510284092762e+0, -0.7385551028674461858e-2));
    u = fma(u, t, SEL3(+0.083333333333333333335592087900, +0.2705808084277815939e+0, +0.2058080842778455335e-1));

    y = dd_mul_DD(dd_add2_Dd(x, -0.5), sl_logk2(x));
    y = dd_add2_DD(y, dd_neg(x));
    y = dd_add2_DD(y, mk(0.91893853320467278056, -3.8782941580672414498e-17));   /* 0.5 * log(2 pi) */

    z = dd_add2_Dd(dd_mul_dd(u, t), o0 ? -0.4006856343865314862e+0 : -0.6735230105319810201e-1);
    z = dd_add2_Dd(dd_mul_Dd(z, t), o0 ? +0.8224670334241132030e+0 : +0.3224670334241132030e+0);
    z = dd_add2_Dd(dd_mul_Dd(z, t), o0 ? -0.5772156649015328655e+0 : +0.4227843350984671345e+0);
    z = dd_mul_Dd(z, t);

    clc = o2 ? y : z;
    if (o2)
        clld = dd_add2_Dd(dd_mul_dd(u, t), 1);
    y = clln;
    clc = otiny ? mk(83.1776616671934334590333, 3.67103459631568507221878e-15)          /* log(2**120) */
          : oref ? dd_add2_DD(mk(1.1447298858494001639, 1.026595116270782638e-17), dd_neg(clc)) : clc;  /* log(pi) */
    clln = otiny ? mk(1, 0) : oref ? clln : clld;
    if (oref) {     /* the reflection: pi / sin(pi a) */
        t = a - (double)(INT64_C(1) << 28) * (double)cvtt_i32(a * (1.0 / (INT64_C(1) << 28)));
        x = dd_mul_DD(clld, sl_sinpik(t));
    }
    clld = otiny ? mk(a * ((double)(INT64_C(1) << 60) * (double)(INT64_C(1) << 60)), 0) : oref ? x : y;
    *clc_out = clc;
    *ratio = dd_div(clln, clld);
}
#undef SEL3

INLINE double sl_lgamma(double a)
{
    d2 clc, ratio;
    sl_gammak(a, &clc, &ratio);
    d2 y = dd_add2_DD(clc, sl_logk2(dd_abs(ratio)));
    double r = y.x + y.y;
    if (isinf(a) || (a <= 0 && visint(a)) || (!isinf(a) && !isnan(a) && isnan(r)))
        r = INFINITY;
    return r;
}

/* n float64 buffers (the last one written), each as long as the first */
static int take64(Buffers *b, PyObject *const *args, int n, double **ptr, Py_ssize_t *len)
{
    b->count = 0;
    for (int i = 0; i < n; i++) {
        int flags = i == n - 1 ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS;
        if (PyObject_GetBuffer(args[i], &b->views[i], flags) < 0) {
            release(b);
            return -1;
        }
        b->count++;
        Py_ssize_t l = b->views[i].len / (Py_ssize_t)sizeof(double);
        if (i == 0)
            *len = l;
        if (l < *len) {
            release(b);
            PyErr_SetString(PyExc_ValueError, "buffer too small");
            return -1;
        }
        ptr[i] = (double *)b->views[i].buf;
    }
    return 0;
}

/* the codes of sleef64 / libm64 (kernels.SLEEF64 names them, in this order) */
/* Sleef and libm both up to F_SLEEF_COUNT, libm only after it */
enum { F_EXP, F_LOG, F_EXPM1, F_LOG1P, F_SINH, F_COSH, F_TANH, F_EXP2, F_ATANH, F_ERF, F_LGAMMA, F_SLEEF_COUNT,
       F_COS = F_SLEEF_COUNT, F_SIN, F_COUNT };

CLONES static void sleef64_k(int code, const double *x, double *out, Py_ssize_t n)
{
#define LOOP(fn) for (Py_ssize_t i = 0; i < n; i++) out[i] = fn(x[i]); break
    switch (code) {
    case F_EXP: LOOP(sl_exp);
    case F_LOG: LOOP(sl_log);
    case F_EXPM1: LOOP(sl_expm1);
    case F_LOG1P: LOOP(sl_log1p);
    case F_SINH: LOOP(sl_sinh);
    case F_COSH: LOOP(sl_cosh);
    case F_TANH: LOOP(sl_tanh);
    case F_EXP2: LOOP(sl_exp2);
    case F_ATANH: LOOP(sl_atanh);
    case F_ERF: LOOP(sl_erf);
    case F_LGAMMA: LOOP(sl_lgamma);
    }
#undef LOOP
}

typedef double (*double_fn)(double);
static const double_fn LIBM_DOUBLE[] = {exp, log, expm1, log1p, sinh, cosh, tanh, exp2, atanh, erf, lgamma, cos, sin};

static long code_arg(PyObject *arg, long count)
{
    long code = PyLong_AsLong(arg);
    if (code < 0 || code >= count) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "no such function");
        return -1;
    }
    return code;
}

/* sleef64(code, x, out) / libm64(code, x, out): Sleef's double function (the vectorised
   body) or the C library's (std::NAME(double), the scalar tail) element by element */
static PyObject *double_unary(PyObject *const *args, Py_ssize_t nargs, int sleef)
{
    Buffers b;
    double *p[2];
    Py_ssize_t n;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "(code, x, out) expected");
        return NULL;
    }
    long code = code_arg(args[0], sleef ? F_SLEEF_COUNT : F_COUNT);
    if (code < 0 || take64(&b, args + 1, 2, p, &n) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    if (sleef)
        sleef64_k((int)code, p[0], p[1], n);
    else {
        double_fn fn = LIBM_DOUBLE[code];
        for (Py_ssize_t i = 0; i < n; i++)
            p[1][i] = fn(p[0][i]);
    }
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

static PyObject *py_sleef64(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return double_unary(args, nargs, 1);
}

static PyObject *py_libm64(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return double_unary(args, nargs, 0);
}

enum { F2_POW, F2_ATAN2, F2_HYPOT, F2_COUNT };

CLONES static void sleef64_2k(int code, const double *a, const double *b, double *out, Py_ssize_t n)
{
#define LOOP(fn) for (Py_ssize_t i = 0; i < n; i++) out[i] = fn(a[i], b[i]); break
    switch (code) {
    case F2_POW: LOOP(sl_pow);
    case F2_ATAN2: LOOP(sl_atan2);
    case F2_HYPOT: LOOP(sl_hypot);
    }
#undef LOOP
}

typedef double (*double_fn2)(double, double);
static const double_fn2 LIBM_DOUBLE2[] = {pow, atan2, hypot};

/* sleef64_2(code, a, b, out) / libm64_2(code, a, b, out): as sleef64, of two arrays */
static PyObject *double_binary(PyObject *const *args, Py_ssize_t nargs, int sleef)
{
    Buffers b;
    double *p[3];
    Py_ssize_t n;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "(code, a, b, out) expected");
        return NULL;
    }
    long code = code_arg(args[0], F2_COUNT);
    if (code < 0 || take64(&b, args + 1, 3, p, &n) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    if (sleef)
        sleef64_2k((int)code, p[0], p[1], p[2], n);
    else {
        double_fn2 fn = LIBM_DOUBLE2[code];
        for (Py_ssize_t i = 0; i < n; i++)
            p[2][i] = fn(p[0][i], p[1][i]);
    }
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

static PyObject *py_sleef64_2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return double_binary(args, nargs, 1);
}

static PyObject *py_libm64_2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return double_binary(args, nargs, 0);
}

/* fma64(a, b, c, out): fma(a, b, c) element by element, rounded once (the fused multiply-adds
   GCC makes of PyTorch's double kernels) */
static PyObject *py_fma64(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Buffers b;
    double *p[4];
    Py_ssize_t n;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "fma64(a, b, c, out)");
        return NULL;
    }
    if (take64(&b, args, 4, p, &n) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        p[3][i] = fma(p[0][i], p[1][i], p[2][i]);
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- erfcx, log_ndtr (float64 and float32)

   PyTorch's calc_erfcx and calc_log_ndtr, scalar code: the polynomials not fused, the x > 50
   expansion's two multiply-adds fused (both measured). For float32 erfcx's polynomials, its
   x > 50 expansion and 2 exp(x*x) run in double (double coefficients, C's exp) and round at
   the end. */
/* erfcx(x) = exp(x*x) erfc(x) on y = 4 / (4 + x) in 100 subintervals, a degree-6 polynomial in
   t = 2 * (100 y) - (2k + 1) on each: the Chebyshev fits of Steven G. Johnson's Faddeeva package
   (MIT licence), the coefficients as PyTorch's calc_erfcx uses them (lowest degree first) */
static const double ERFCX_Y100[100][7] = {
    {0.70878032454106438663e-3, 0.71234091047026302958e-3, 0.35779077297597742384e-5, 0.17403143962587937815e-7, 0.81710660047307788845e-10, 0.36885022360434957634e-12, 0.15917038551111111111e-14},
    {0.21479143208285144230e-2, 0.72686402367379996033e-3, 0.36843175430938995552e-5, 0.18071841272149201685e-7, 0.85496449296040325555e-10, 0.38852037518534291510e-12, 0.16868473576888888889e-14},
    {0.36165255935630175090e-2, 0.74182092323555510862e-3, 0.37948319957528242260e-5, 0.18771627021793087350e-7, 0.89484715122415089123e-10, 0.40935858517772440862e-12, 0.17872061464888888889e-14},
    {0.51154983860031979264e-2, 0.75722840734791660540e-3, 0.39096425726735703941e-5, 0.19504168704300468210e-7, 0.93687503063178993915e-10, 0.43143925959079664747e-12, 0.18939926435555555556e-14},
    {0.66457513172673049824e-2, 0.77310406054447454920e-3, 0.40289510589399439385e-5, 0.20271233238288381092e-7, 0.98117631321709100264e-10, 0.45484207406017752971e-12, 0.20076352213333333333e-14},
    {0.82082389970241207883e-2, 0.78946629611881710721e-3, 0.41529701552622656574e-5, 0.21074693344544655714e-7, 0.10278874108587317989e-9, 0.47965201390613339638e-12, 0.21285907413333333333e-14},
    {0.98039537275352193165e-2, 0.80633440108342840956e-3, 0.42819241329736982942e-5, 0.21916534346907168612e-7, 0.10771535136565470914e-9, 0.50595972623692822410e-12, 0.22573462684444444444e-14},
    {0.11433927298290302370e-1, 0.82372858383196561209e-3, 0.44160495311765438816e-5, 0.22798861426211986056e-7, 0.11291291745879239736e-9, 0.53386189365816880454e-12, 0.23944209546666666667e-14},
    {0.13099232878814653979e-1, 0.84167002467906968214e-3, 0.45555958988457506002e-5, 0.23723907357214175198e-7, 0.11839789326602695603e-9, 0.56346163067550237877e-12, 0.25403679644444444444e-14},
    {0.14800987015587535621e-1, 0.86018092946345943214e-3, 0.47008265848816866105e-5, 0.24694040760197315333e-7, 0.12418779768752299093e-9, 0.59486890370320261949e-12, 0.26957764568888888889e-14},
    {0.16540351739394069380e-1, 0.87928458641241463952e-3, 0.48520195793001753903e-5, 0.25711774900881709176e-7, 0.13030128534230822419e-9, 0.62820097586874779402e-12, 0.28612737351111111111e-14},
    {0.18318536789842392647e-1, 0.89900542647891721692e-3, 0.50094684089553365810e-5, 0.26779777074218070482e-7, 0.13675822186304615566e-9, 0.66358287745352705725e-12, 0.30375273884444444444e-14},
    {0.20136801964214276775e-1, 0.91936908737673676012e-3, 0.51734830914104276820e-5, 0.27900878609710432673e-7, 0.14357976402809042257e-9, 0.70114790311043728387e-12, 0.32252476000000000000e-14},
    {0.21996459598282740954e-1, 0.94040248155366777784e-3, 0.53443911508041164739e-5, 0.29078085538049374673e-7, 0.15078844500329731137e-9, 0.74103813647499204269e-12, 0.34251892320000000000e-14},
    {0.23898877187226319502e-1, 0.96213386835900177540e-3, 0.55225386998049012752e-5, 0.30314589961047687059e-7, 0.15840826497296335264e-9, 0.78340500472414454395e-12, 0.36381553564444444445e-14},
    {0.25845480155298518485e-1, 0.98459293067820123389e-3, 0.57082915920051843672e-5, 0.31613782169164830118e-7, 0.16646478745529630813e-9, 0.82840985928785407942e-12, 0.38649975768888888890e-14},
    {0.27837754783474696598e-1, 0.10078108563256892757e-2, 0.59020366493792212221e-5, 0.32979263553246520417e-7, 0.17498524159268458073e-9, 0.87622459124842525110e-12, 0.41066206488888888890e-14},
    {0.29877251304899307550e-1, 0.10318204245057349310e-2, 0.61041829697162055093e-5, 0.34414860359542720579e-7, 0.18399863072934089607e-9, 0.92703227366365046533e-12, 0.43639844053333333334e-14},
    {0.31965587178596443475e-1, 0.10566560976716574401e-2, 0.63151633192414586770e-5, 0.35924638339521924242e-7, 0.19353584758781174038e-9, 0.98102783859889264382e-12, 0.46381060817777777779e-14},
    {0.34104450552588334840e-1, 0.10823541191350532574e-2, 0.65354356159553934436e-5, 0.37512918348533521149e-7, 0.20362979635817883229e-9, 0.10384187833037282363e-11, 0.49300625262222222221e-14},
    {0.36295603928292425716e-1, 0.11089526167995268200e-2, 0.67654845095518363577e-5, 0.39184292949913591646e-7, 0.21431552202133775150e-9, 0.10994259106646731797e-11, 0.52409949102222222221e-14},
    {0.38540888038840509795e-1, 0.11364917134175420009e-2, 0.70058230641246312003e-5, 0.40943644083718586939e-7, 0.22563034723692881631e-9, 0.11642841011361992885e-11, 0.55721092871111111110e-14},
    {0.40842225954785960651e-1, 0.11650136437945673891e-2, 0.72569945502343006619e-5, 0.42796161861855042273e-7, 0.23761401711005024162e-9, 0.12332431172381557035e-11, 0.59246802364444444445e-14},
    {0.43201627431540222422e-1, 0.11945628793917272199e-2, 0.75195743532849206263e-5, 0.44747364553960993492e-7, 0.25030885216472953674e-9, 0.13065684400300476484e-11, 0.63000532853333333334e-14},
    {0.45621193513810471438e-1, 0.12251862608067529503e-2, 0.77941720055551920319e-5, 0.46803119830954460212e-7, 0.26375990983978426273e-9, 0.13845421370977119765e-11, 0.66996477404444444445e-14},
    {0.48103121413299865517e-1, 0.12569331386432195113e-2, 0.80814333496367673980e-5, 0.48969667335682018324e-7, 0.27801515481905748484e-9, 0.14674637611609884208e-11, 0.71249589351111111110e-14},
    {0.50649709676983338501e-1, 0.12898555233099055810e-2, 0.83820428414568799654e-5, 0.51253642652551838659e-7, 0.29312563849675507232e-9, 0.15556512782814827846e-11, 0.75775607822222222221e-14},
    {0.53263363664388864181e-1, 0.13240082443256975769e-2, 0.86967260015007658418e-5, 0.53662102750396795566e-7, 0.30914568786634796807e-9, 0.16494420240828493176e-11, 0.80591079644444444445e-14},
    {0.55946601353500013794e-1, 0.13594491197408190706e-2, 0.90262520233016380987e-5, 0.56202552975056695376e-7, 0.32613310410503135996e-9, 0.17491936862246367398e-11, 0.85713381688888888890e-14},
    {0.58702059496154081813e-1, 0.13962391363223647892e-2, 0.93714365487312784270e-5, 0.58882975670265286526e-7, 0.34414937110591753387e-9, 0.18552853109751857859e-11, 0.91160736711111111110e-14},
    {0.61532500145144778048e-1, 0.14344426411912015247e-2, 0.97331446201016809696e-5, 0.61711860507347175097e-7, 0.36325987418295300221e-9, 0.19681183310134518232e-11, 0.96952238400000000000e-14},
    {0.64440817576653297993e-1, 0.14741275456383131151e-2, 0.10112293819576437838e-4, 0.64698236605933246196e-7, 0.38353412915303665586e-9, 0.20881176114385120186e-11, 0.10310784480000000000e-13},
    {0.67430045633130393282e-1, 0.15153655418916540370e-2, 0.10509857606888328667e-4, 0.67851706529363332855e-7, 0.40504602194811140006e-9, 0.22157325110542534469e-11, 0.10964842115555555556e-13},
    {0.70503365513338850709e-1, 0.15582323336495709827e-2, 0.10926868866865231089e-4, 0.71182482239613507542e-7, 0.42787405890153386710e-9, 0.23514379522274416437e-11, 0.11659571751111111111e-13},
    {0.73664114037944596353e-1, 0.16028078812438820413e-2, 0.11364423678778207991e-4, 0.74701423097423182009e-7, 0.45210162777476488324e-9, 0.24957355004088569134e-11, 0.12397238257777777778e-13},
    {0.76915792420819562379e-1, 0.16491766623447889354e-2, 0.11823685320041302169e-4, 0.78420075993781544386e-7, 0.47781726956916478925e-9, 0.26491544403815724749e-11, 0.13180196462222222222e-13},
    {0.80262075578094612819e-1, 0.16974279491709504117e-2, 0.12305888517309891674e-4, 0.82350717698979042290e-7, 0.50511496109857113929e-9, 0.28122528497626897696e-11, 0.14010889635555555556e-13},
    {0.83706822008980357446e-1, 0.17476561032212656962e-2, 0.12812343958540763368e-4, 0.86506399515036435592e-7, 0.53409440823869467453e-9, 0.29856186620887555043e-11, 0.14891851591111111111e-13},
    {0.87254084284461718231e-1, 0.17999608886001962327e-2, 0.13344443080089492218e-4, 0.90900994316429008631e-7, 0.56486134972616465316e-9, 0.31698707080033956934e-11, 0.15825697795555555556e-13},
    {0.90908120182172748487e-1, 0.18544478050657699758e-2, 0.13903663143426120077e-4, 0.95549246062549906177e-7, 0.59752787125242054315e-9, 0.33656597366099099413e-11, 0.16815130613333333333e-13},
    {0.94673404508075481121e-1, 0.19112284419887303347e-2, 0.14491572616545004930e-4, 0.10046682186333613697e-6, 0.63221272959791000515e-9, 0.35736693975589130818e-11, 0.17862931591111111111e-13},
    {0.98554641648004456555e-1, 0.19704208544725622126e-2, 0.15109836875625443935e-4, 0.10567036667675984067e-6, 0.66904168640019354565e-9, 0.37946171850824333014e-11, 0.18971959040000000000e-13},
    {0.10255677889470089531e0, 0.20321499629472857418e-2, 0.15760224242962179564e-4, 0.11117756071353507391e-6, 0.70814785110097658502e-9, 0.40292553276632563925e-11, 0.20145143075555555556e-13},
    {0.10668502059865093318e0, 0.20965479776148731610e-2, 0.16444612377624983565e-4, 0.11700717962026152749e-6, 0.74967203250938418991e-9, 0.42783716186085922176e-11, 0.21385479360000000000e-13},
    {0.11094484319386444474e0, 0.21637548491908170841e-2, 0.17164995035719657111e-4, 0.12317915750735938089e-6, 0.79376309831499633734e-9, 0.45427901763106353914e-11, 0.22696025653333333333e-13},
    {0.11534201115268804714e0, 0.22339187474546420375e-2, 0.17923489217504226813e-4, 0.12971465288245997681e-6, 0.84057834180389073587e-9, 0.48233721206418027227e-11, 0.24079890062222222222e-13},
    {0.11988259392684094740e0, 0.23071965691918689601e-2, 0.18722342718958935446e-4, 0.13663611754337957520e-6, 0.89028385488493287005e-9, 0.51210161569225846701e-11, 0.25540227111111111111e-13},
    {0.12457298393509812907e0, 0.23837544771809575380e-2, 0.19563942105711612475e-4, 0.14396736847739470782e-6, 0.94305490646459247016e-9, 0.54366590583134218096e-11, 0.27080225920000000000e-13},
    {0.12941991566142438816e0, 0.24637684719508859484e-2, 0.20450821127475879816e-4, 0.15173366280523906622e-6, 0.99907632506389027739e-9, 0.57712760311351625221e-11, 0.28703099555555555556e-13},
    {0.13443048593088696613e0, 0.25474249981080823877e-2, 0.21385669591362915223e-4, 0.15996177579900443030e-6, 0.10585428844575134013e-8, 0.61258809536787882989e-11, 0.30412080142222222222e-13},
    {0.13961217543434561353e0, 0.26349215871051761416e-2, 0.22371342712572567744e-4, 0.16868008199296822247e-6, 0.11216596910444996246e-8, 0.65015264753090890662e-11, 0.32210394506666666666e-13},
    {0.14497287157673800690e0, 0.27264675383982439814e-2, 0.23410870961050950197e-4, 0.17791863939526376477e-6, 0.11886425714330958106e-8, 0.68993039665054288034e-11, 0.34101266222222222221e-13},
    {0.15052089272774618151e0, 0.28222846410136238008e-2, 0.24507470422713397006e-4, 0.18770927679626136909e-6, 0.12597184587583370712e-8, 0.73203433049229821618e-11, 0.36087889048888888890e-13},
    {0.15626501395774612325e0, 0.29226079376196624949e-2, 0.25664553693768450545e-4, 0.19808568415654461964e-6, 0.13351257759815557897e-8, 0.77658124891046760667e-11, 0.38173420035555555555e-13},
    {0.16221449434620737567e0, 0.30276865332726475672e-2, 0.26885741326534564336e-4, 0.20908350604346384143e-6, 0.14151148144240728728e-8, 0.82369170665974313027e-11, 0.40360957457777777779e-13},
    {0.16837910595412130659e0, 0.31377844510793082301e-2, 0.28174873844911175026e-4, 0.22074043807045782387e-6, 0.14999481055996090039e-8, 0.87348993661930809254e-11, 0.42653528977777777779e-13},
    {0.17476916455659369953e0, 0.32531815370903068316e-2, 0.29536024347344364074e-4, 0.23309632627767074202e-6, 0.15899007843582444846e-8, 0.92610375235427359475e-11, 0.45054073102222222221e-13},
    {0.18139556223643701364e0, 0.33741744168096996041e-2, 0.30973511714709500836e-4, 0.24619326937592290996e-6, 0.16852609412267750744e-8, 0.98166442942854895573e-11, 0.47565418097777777779e-13},
    {0.18826980194443664549e0, 0.35010775057740317997e-2, 0.32491914440014267480e-4, 0.26007572375886319028e-6, 0.17863299617388376116e-8, 0.10403065638343878679e-10, 0.50190265831111111110e-13},
    {0.19540403413693967350e0, 0.36342240767211326315e-2, 0.34096085096200907289e-4, 0.27479061117017637474e-6, 0.18934228504790032826e-8, 0.11021679075323598664e-10, 0.52931171733333333334e-13},
    {0.20281109560651886959e0, 0.37739673859323597060e-2, 0.35791165457592409054e-4, 0.29038742889416172404e-6, 0.20068685374849001770e-8, 0.11673891799578381999e-10, 0.55790523093333333334e-13},
    {0.21050455062669334978e0, 0.39206818613925652425e-2, 0.37582602289680101704e-4, 0.30691836231886877385e-6, 0.21270101645763677824e-8, 0.12361138551062899455e-10, 0.58770520160000000000e-13},
    {0.21849873453703332479e0, 0.40747643554689586041e-2, 0.39476163820986711501e-4, 0.32443839970139918836e-6, 0.22542053491518680200e-8, 0.13084879235290858490e-10, 0.61873153262222222221e-13},
    {0.22680879990043229327e0, 0.42366354648628516935e-2, 0.41477956909656896779e-4, 0.34300544894502810002e-6, 0.23888264229264067658e-8, 0.13846596292818514601e-10, 0.65100183751111111110e-13},
    {0.23545076536988703937e0, 0.44067409206365170888e-2, 0.43594444916224700881e-4, 0.36268045617760415178e-6, 0.25312606430853202748e-8, 0.14647791812837903061e-10, 0.68453122631111111110e-13},
    {0.24444156740777432838e0, 0.45855530511605787178e-2, 0.45832466292683085475e-4, 0.38352752590033030472e-6, 0.26819103733055603460e-8, 0.15489984390884756993e-10, 0.71933206364444444445e-13},
    {0.25379911500634264643e0, 0.47735723208650032167e-2, 0.48199253896534185372e-4, 0.40561404245564732314e-6, 0.28411932320871165585e-8, 0.16374705736458320149e-10, 0.75541379822222222221e-13},
    {0.26354234756393613032e0, 0.49713289477083781266e-2, 0.50702455036930367504e-4, 0.42901079254268185722e-6, 0.30095422058900481753e-8, 0.17303497025347342498e-10, 0.79278273368888888890e-13},
    {0.27369129607732343398e0, 0.51793846023052643767e-2, 0.53350152258326602629e-4, 0.45379208848865015485e-6, 0.31874057245814381257e-8, 0.18277905010245111046e-10, 0.83144182364444444445e-13},
    {0.28426714781640316172e0, 0.53983341916695141966e-2, 0.56150884865255810638e-4, 0.48003589196494734238e-6, 0.33752476967570796349e-8, 0.19299477888083469086e-10, 0.87139049137777777779e-13},
    {0.29529231465348519920e0, 0.56288077305420795663e-2, 0.59113671189913307427e-4, 0.50782393781744840482e-6, 0.35735475025851713168e-8, 0.20369760937017070382e-10, 0.91262442613333333334e-13},
    {0.30679050522528838613e0, 0.58714723032745403331e-2, 0.62248031602197686791e-4, 0.53724185766200945789e-6, 0.37827999418960232678e-8, 0.21490291930444538307e-10, 0.95513539182222222221e-13},
    {0.31878680111173319425e0, 0.61270341192339103514e-2, 0.65564012259707640976e-4, 0.56837930287837738996e-6, 0.40035151353392378882e-8, 0.22662596341239294792e-10, 0.99891109760000000000e-13},
    {0.33130773722152622027e0, 0.63962406646798080903e-2, 0.69072209592942396666e-4, 0.60133006661885941812e-6, 0.42362183765883466691e-8, 0.23888182347073698382e-10, 0.10439349811555555556e-12},
    {0.34438138658041336523e0, 0.66798829540414007258e-2, 0.72783795518603561144e-4, 0.63619220443228800680e-6, 0.44814499336514453364e-8, 0.25168535651285475274e-10, 0.10901861383111111111e-12},
    {0.35803744972380175583e0, 0.69787978834882685031e-2, 0.76710543371454822497e-4, 0.67306815308917386747e-6, 0.47397647975845228205e-8, 0.26505114141143050509e-10, 0.11376390933333333333e-12},
    {0.37230734890119724188e0, 0.72938706896461381003e-2, 0.80864854542670714092e-4, 0.71206484718062688779e-6, 0.50117323769745883805e-8, 0.27899342394100074165e-10, 0.11862637614222222222e-12},
    {0.38722432730555448223e0, 0.76260375162549802745e-2, 0.85259785810004603848e-4, 0.75329383305171327677e-6, 0.52979361368388119355e-8, 0.29352606054164086709e-10, 0.12360253370666666667e-12},
    {0.40282355354616940667e0, 0.79762880915029728079e-2, 0.89909077342438246452e-4, 0.79687137961956194579e-6, 0.55989731807360403195e-8, 0.30866246101464869050e-10, 0.12868841946666666667e-12},
    {0.41914223158913787649e0, 0.83456685186950463538e-2, 0.94827181359250161335e-4, 0.84291858561783141014e-6, 0.59154537751083485684e-8, 0.32441553034347469291e-10, 0.13387957943111111111e-12},
    {0.43621971639463786896e0, 0.87352841828289495773e-2, 0.10002929142066799966e-3, 0.89156148280219880024e-6, 0.62480008150788597147e-8, 0.34079760983458878910e-10, 0.13917107176888888889e-12},
    {0.45409763548534330981e0, 0.91463027755548240654e-2, 0.10553137232446167258e-3, 0.94293113464638623798e-6, 0.65972492312219959885e-8, 0.35782041795476563662e-10, 0.14455745872000000000e-12},
    {0.47282001668512331468e0, 0.95799574408860463394e-2, 0.11135019058000067469e-3, 0.99716373005509038080e-6, 0.69638453369956970347e-8, 0.37549499088161345850e-10, 0.15003280712888888889e-12},
    {0.49243342227179841649e0, 0.10037550043909497071e-1, 0.11750334542845234952e-3, 0.10544006716188967172e-5, 0.73484461168242224872e-8, 0.39383162326435752965e-10, 0.15559069118222222222e-12},
    {0.51298708979209258326e0, 0.10520454564612427224e-1, 0.12400930037494996655e-3, 0.11147886579371265246e-5, 0.77517184550568711454e-8, 0.41283980931872622611e-10, 0.16122419680000000000e-12},
    {0.53453307979101369843e0, 0.11030120618800726938e-1, 0.13088741519572269581e-3, 0.11784797595374515432e-5, 0.81743383063044825400e-8, 0.43252818449517081051e-10, 0.16692592640000000000e-12},
    {0.55712643071169299478e0, 0.11568077107929735233e-1, 0.13815797838036651289e-3, 0.12456314879260904558e-5, 0.86169898078969313597e-8, 0.45290446811539652525e-10, 0.17268801084444444444e-12},
    {0.58082532122519320968e0, 0.12135935999503877077e-1, 0.14584223996665838559e-3, 0.13164068573095710742e-5, 0.90803643355106020163e-8, 0.47397540713124619155e-10, 0.17850211608888888889e-12},
    {0.60569124025293375554e0, 0.12735396239525550361e-1, 0.15396244472258863344e-3, 0.13909744385382818253e-5, 0.95651595032306228245e-8, 0.49574672127669041550e-10, 0.18435945564444444444e-12},
    {0.63178916494715716894e0, 0.13368247798287030927e-1, 0.16254186562762076141e-3, 0.14695084048334056083e-5, 0.10072078109604152350e-7, 0.51822304995680707483e-10, 0.19025081422222222222e-12},
    {0.65918774689725319200e0, 0.14036375850601992063e-1, 0.17160483760259706354e-3, 0.15521885688723188371e-5, 0.10601827031535280590e-7, 0.54140790105837520499e-10, 0.19616655146666666667e-12},
    {0.68795950683174433822e0, 0.14741765091365869084e-1, 0.18117679143520433835e-3, 0.16392004108230585213e-5, 0.11155116068018043001e-7, 0.56530360194925690374e-10, 0.20209663662222222222e-12},
    {0.71818103808729967036e0, 0.15486504187117112279e-1, 0.19128428784550923217e-3, 0.17307350969359975848e-5, 0.11732656736113607751e-7, 0.58991125287563833603e-10, 0.20803065333333333333e-12},
    {0.74993321911726254661e0, 0.16272790364044783382e-1, 0.20195505163377912645e-3, 0.18269894883203346953e-5, 0.12335161021630225535e-7, 0.61523068312169087227e-10, 0.21395783431111111111e-12},
    {0.78330143531283492729e0, 0.17102934132652429240e-1, 0.21321800585063327041e-3, 0.19281661395543913713e-5, 0.12963340087354341574e-7, 0.64126040998066348872e-10, 0.21986708942222222222e-12},
    {0.81837581041023811832e0, 0.17979364149044223802e-1, 0.22510330592753129006e-3, 0.20344732868018175389e-5, 0.13617902941839949718e-7, 0.66799760083972474642e-10, 0.22574701262222222222e-12},
    {0.85525144775685126237e0, 0.18904632212547561026e-1, 0.23764237370371255638e-3, 0.21461248251306387979e-5, 0.14299555071870523786e-7, 0.69543803864694171934e-10, 0.23158593688888888889e-12},
    {0.89402868170849933734e0, 0.19881418399127202569e-1, 0.25086793128395995798e-3, 0.22633402747585233180e-5, 0.15008997042116532283e-7, 0.72357609075043941261e-10, 0.23737194737777777778e-12},
    {0.93481333942870796363e0, 0.20912536329780368893e-1, 0.26481403465998477969e-3, 0.23863447359754921676e-5, 0.15746923065472184451e-7, 0.75240468141720143653e-10, 0.24309291271111111111e-12},
    {0.97771701335885035464e0, 0.22000938572830479551e-1, 0.27951610702682383001e-3, 0.25153688325245314530e-5, 0.16514019547822821453e-7, 0.78191526829368231251e-10, 0.24873652355555555556e-12},
};

INLINE double erfcx_poly(int k, double t)
{
    const double *c = ERFCX_Y100[k];
    double p = c[6];
    for (int i = 5; i >= 0; i--)
        p = p * t + c[i];
    return p;
}

INLINE double erfcx_y100_d(double y100)
{
    int k = (int)y100;
    if (k < 0 || k > 99)
        return 1.0;     /* y = 1: |x| < 4 eps */
    return erfcx_poly(k, 2 * y100 - (2 * k + 1));
}

INLINE float erfcx_y100_f(float y100)
{
    int k = (int)y100;
    if (k < 0 || k > 99)
        return 1.0f;
    float t = 2 * y100 - (float)(2 * k + 1);
    return (float)erfcx_poly(k, (double)t);
}

#define ISPI 0.56418958354775628694807945156

static double calc_erfcx_d(double x)
{
    if (isnan(x))
        return x;
    if (x >= 0) {
        if (x > 50) {
            if (x > 5e7)
                return ISPI / x;
            double xx = x * x;
            return ISPI * fma(xx, xx + 4.5, 2) / (x * fma(xx, xx + 5, 3.75));
        }
        return erfcx_y100_d(400 / (4 + x));
    }
    if (x < -26.7)
        return INFINITY;
    if (x < -6.1)
        return 2 * exp(x * x);
    return 2 * exp(x * x) - erfcx_y100_d(400 / (4 - x));
}

static float calc_erfcx_f(float x)
{
    if (isnan(x))
        return x;
    if (x >= 0) {
        if (x > 50) {
            const float ispi = (float)ISPI;
            if (x > 5e7f)
                return ispi / x;
            /* (x*x) * (x*x + 4.5) + 2 in double (4.5 is a double), (x*x) * (x*x + 5) in float
               (5 an int), + 3.75 in double again */
            float xx = x * x;
            double num = (double)ispi * fma((double)xx, (double)xx + 4.5, 2);
            return (float)(num / ((double)x * ((double)(xx * (xx + 5)) + 3.75)));
        }
        return erfcx_y100_f(400 / (4 + x));
    }
    if (x < -26.7f)
        return INFINITY;
    if (x < -6.1f)     /* exp is the C library's double exp */
        return (float)(2 * exp((double)(x * x)));
    return (float)(2 * exp((double)(x * x)) - (double)erfcx_y100_f(400 / (4 - x)));
}

static double calc_log_ndtr_d(double x)
{
    double t = x * 0.707106781186547524400844362104849039;
    if (x < -1.0)
        return log(calc_erfcx_d(-t) / 2) - t * t;
    return log1p(-erfc(t) / 2);
}

static float calc_log_ndtr_f(float x)
{
    float t = x * (float)0.707106781186547524400844362104849039;
    if (x < -1.0f)
        return logf(calc_erfcx_f(-t) / 2) - t * t;
    return log1pf(-erfcf(t) / 2);
}

/* special64(code, x, out) / special32(code, x, out): 0 erfcx, 1 log_ndtr */
static PyObject *py_special64(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Buffers b;
    double *p[2];
    Py_ssize_t n;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "special64(code, x, out)");
        return NULL;
    }
    long code = code_arg(args[0], 2);
    if (code < 0 || take64(&b, args + 1, 2, p, &n) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        p[1][i] = code == 0 ? calc_erfcx_d(p[0][i]) : calc_log_ndtr_d(p[0][i]);
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

static PyObject *py_special32(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Buffers b;
    float *p[2];
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "special32(code, x, out)");
        return NULL;
    }
    long code = code_arg(args[0], 2);
    if (code < 0 || take(&b, args + 1, 2, -1, p) < 0)
        return NULL;
    Py_ssize_t n = b.views[0].len / (Py_ssize_t)sizeof(float);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        p[1][i] = code == 0 ? calc_erfcx_f(p[0][i]) : calc_log_ndtr_f(p[0][i]);
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"expf", (PyCFunction)(void (*)(void))py_expf, METH_FASTCALL, "expf(x, out)"},
    {"logf", (PyCFunction)(void (*)(void))py_logf, METH_FASTCALL, "logf(x, out)"},
    {"log_softmax", (PyCFunction)(void (*)(void))py_log_softmax, METH_FASTCALL,
     "log_softmax(rows, cols, lanes, x, out)"},
    {"softmax", (PyCFunction)(void (*)(void))py_softmax, METH_FASTCALL,
     "softmax(rows, cols, lanes, x, out)"},
    {"softmax_backward", (PyCFunction)(void (*)(void))py_softmax_backward, METH_FASTCALL,
     "softmax_backward(rows, cols, lanes, grad, y, out)"},
    {"log_softmax_backward", (PyCFunction)(void (*)(void))py_log_softmax_backward,
     METH_FASTCALL, "log_softmax_backward(rows, cols, lanes, grad, y, out)"},
    {"tanh_backward", (PyCFunction)(void (*)(void))py_tanh_backward, METH_FASTCALL,
     "tanh_backward(grad, y, out)"},
    {"nll_sum", (PyCFunction)(void (*)(void))py_nll_sum, METH_FASTCALL,
     "nll_sum(rows, cols, x, target)"},
    {"column_sums", (PyCFunction)(void (*)(void))py_outer_sums, METH_FASTCALL,
     "column_sums(grouped, x, out)"},
    {"welford", (PyCFunction)(void (*)(void))py_welford, METH_FASTCALL, "welford(x, mean, m2)"},
    {"add_rows", (PyCFunction)(void (*)(void))py_add_rows, METH_FASTCALL,
     "add_rows(n, inner, rows, g, z)"},
    {"fma_gemm", (PyCFunction)(void (*)(void))py_fma_gemm, METH_FASTCALL,
     "fma_gemm(m, n, k, at, bt, ct)"},
    {"libm_float", (PyCFunction)(void (*)(void))py_libm_float, METH_FASTCALL,
     "libm_float(code, x, out)"},
    {"libm_float2", (PyCFunction)(void (*)(void))py_libm_float2, METH_FASTCALL,
     "libm_float2(code, a, b, out)"},
    {"sleef64", (PyCFunction)(void (*)(void))py_sleef64, METH_FASTCALL, "sleef64(code, x, out)"},
    {"libm64", (PyCFunction)(void (*)(void))py_libm64, METH_FASTCALL, "libm64(code, x, out)"},
    {"sleef64_2", (PyCFunction)(void (*)(void))py_sleef64_2, METH_FASTCALL, "sleef64_2(code, a, b, out)"},
    {"libm64_2", (PyCFunction)(void (*)(void))py_libm64_2, METH_FASTCALL, "libm64_2(code, a, b, out)"},
    {"fma64", (PyCFunction)(void (*)(void))py_fma64, METH_FASTCALL, "fma64(a, b, c, out)"},
    {"special64", (PyCFunction)(void (*)(void))py_special64, METH_FASTCALL, "special64(code, x, out)"},
    {"special32", (PyCFunction)(void (*)(void))py_special32, METH_FASTCALL, "special32(code, x, out)"},
    {"address", py_address, METH_O, "address(array)"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels", "C twins of gradrepl.engine.kernels (optional)", -1,
    methods
};

PyMODINIT_FUNC PyInit__kernels(void)
{
    return PyModule_Create(&module);
}
