# np.c_ / np.r_ as the textbooks build toy 2-d data, then into a tensor
import torch
import numpy as np
np.random.seed(0)
t = np.linspace(0, 1, 5)
r = np.random.randn(5) * 0.2
x = np.c_[r * np.sin(t), r * np.cos(t)]
x.shape
x
np.r_[1:4, 0, 0, np.array([4, 5])]
np.r_[0:1:0.25]
np.c_[np.array([1, 2, 3]), np.array([4, 5, 6])]
np.r_[np.zeros(2), np.ones(3)]
torch.from_numpy(np.c_[t, t]).float()
y = np.zeros((6, 2))
y[0:5] = np.c_[t, -t]
torch.tensor(y, dtype=torch.float32).sum(0)
# rows picked by a range, as a loop over classes fills them
z = np.zeros((6, 2))
for j in range(2):
    ix = range(3 * j, 3 * (j + 1))
    z[ix] = np.c_[np.ones(3) * j, np.arange(3)]
z
z[range(0, 6, 2)]
z[range(2), 1]
