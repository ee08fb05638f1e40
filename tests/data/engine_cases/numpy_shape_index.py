import numpy as np
a = np.arange(12)
b = a.reshape(3, 4)
b
b.T, b.transpose(), np.transpose(b)
b.reshape(-1), b.reshape((2, 6)), np.reshape(b, (4, 3))
b.flatten(), b.ravel()
np.concatenate([b, b]), np.concatenate([b, b], axis=1)
np.stack([a, a]), np.stack([a, a], axis=1).shape
np.vstack([a[:3], a[3:6]]), np.hstack([a[:2], a[5:7]])
np.expand_dims(a[:3], 0), np.expand_dims(a[:3], axis=1).shape
np.squeeze(np.zeros((1, 3, 1))).shape, np.zeros((1, 3, 1)).squeeze(axis=0).shape
b[0], b[1, 2], b[-1], b[:, 1], b[1:, ::2], b[..., -1]
b[0][1]
b[b > 5]
b[[0, 2]]
b[[0, 2], [1, 3]]
b[:, None].shape
b[np.newaxis].shape
len(b), b.shape[0]
for row in b:
    print(row, row.sum())
b[0] = 0
b[1, 1] = -5
b[:, 3] = [7, 8, 9]
b[b < 0] = 100
b
a
c = np.zeros((2, 2))
c += 1
c *= 3
c -= np.ones(2)
c /= 2
c
c[0, 0] = 2.5
c.fill(4)
c
m = np.array([3, 1, 2])
np.sort(m), np.argsort(m), m.argsort()
np.unique(np.array([3, 1, 3, 2]))
