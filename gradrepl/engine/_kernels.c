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
