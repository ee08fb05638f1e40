import numpy as np
x = np.linspace(-2, 2, 5)
np.exp(x)
np.log(np.array([1.0, 2.0, 10.0]))
np.sin(x), np.cos(x)
np.tanh(x)
np.sqrt(np.array([4.0, 2.0]))
np.abs(x), np.sign(x)
np.power(x, 2), np.power(2, np.arange(4))
np.square(x)
np.maximum(x, 0), np.minimum(x, 0.5)
np.clip(x, -1, 1)
np.where(x > 0, x, 0.0)
np.where(x > 0)
np.floor(np.array([1.5, -1.5])), np.round(np.array([0.5, 1.5, 2.567]), 2)
x + 1, 1 - x, x * x, x / 2, 2 / np.array([1.0, 4.0]), x ** 2, -x
x // 1, x % 1.5
x > 0, x == 0, x != 0
(x > -1) & (x < 1), (x < -1) | (x > 1)
np.array([1, 2, 3]) / 2
np.array([1, 2, 3]) * 2.5
np.array([1, 2, 3], dtype=np.float32) * 2.5
np.array([[1.0], [2.0]]) + np.array([10.0, 20.0, 30.0])
m = np.arange(12.0).reshape(3, 4)
m.sum(), m.sum(axis=0), m.sum(axis=1, keepdims=True)
np.sum(m), np.sum(m, axis=1)
m.mean(), np.mean(m, axis=0), m.std(), np.std(m, axis=1), m.var(), np.var(m, axis=0, ddof=1)
m.max(), np.max(m, axis=0), m.min(axis=1), np.min(m)
m.argmax(), np.argmax(m, axis=1), np.argmin(m, axis=0)
m.prod(axis=1), np.prod(np.array([1, 2, 3, 4]))
np.cumsum(np.arange(5)), m.cumsum(axis=1)
a = np.array([[1.0, 2.0], [3.0, 4.0]])
a @ a, a.dot(a), np.dot(a, a), np.matmul(a, a)
np.dot(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
a @ np.array([1.0, 1.0])
np.outer(np.array([1, 2]), np.array([3, 4, 5]))
np.allclose(a, a + 1e-9), np.isclose(a, a + 0.5), np.array_equal(a, a)
s = a.sum()
s, s * 2, s / 3, -s, s + np.float64(1)
print(s, s / 3)
float(s), int(s)
np.float32(1) / 3
total = 0.0
for v in a.sum(axis=1):
    total += v
total
np.exp(np.array([1, 2], dtype=np.float32))
np.testing.assert_allclose(a, a + 1e-9)
