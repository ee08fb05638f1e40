import numpy as np
a = np.array([[1, 2], [3, 4]])
a
print(a)
isinstance(a, np.ndarray)
a.dtype, a.shape, a.ndim, a.size
a.dtype
np.array([1.5, 2, 3])
np.array([True, False])
np.array([1, 2], dtype=np.float32)
np.array([[1.0, 2.0]], dtype='float64')
np.asarray([1, 2, 3])
np.zeros(3)
np.zeros((2, 3), dtype=np.int64)
np.ones((2, 2))
np.ones(3, dtype=int)
np.full((2, 2), 7)
np.full(3, 0.5)
np.empty(0)
np.arange(5)
np.arange(1, 10, 3)
np.arange(0, 1, 0.25)
np.arange(5.0)
np.linspace(0, 1, 5)
np.linspace(-1, 1, 4, endpoint=False)
np.eye(3)
np.eye(2, 3, dtype=np.int64)
np.zeros_like(a)
np.ones_like(a, dtype=np.float32)
np.full_like(a, 9)
np.pi, np.e, np.inf, np.nan
np.zeros(1, np.float32).dtype, np.zeros(1, np.float64).dtype, np.zeros(1, np.int64).dtype, np.zeros(1, np.bool_).dtype
np.float32(1.5), np.float64(2), np.int64(3)
print(np.float32(1.5), np.float64(0.1) + 0.2)
np.arange(2000)
np.linspace(0, 1, 12)
np.arange(12).reshape(3, 4) / 7
np.array([1e-8, 1.0, 1e8])
np.array(3.5)
np.array([1, 2]).astype(np.float32)
np.array([1.7, -2.7]).astype(np.int64)
a.astype(bool)
a.dtype == np.int64, a.dtype == 'int64', str(a.dtype)
a.tolist(), a.item(3)
f"{a}"
print(f"n: {np.ones(3)}")
b = a.copy()
b[0, 0] = 100
a, b
