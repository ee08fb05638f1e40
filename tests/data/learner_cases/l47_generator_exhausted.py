import torch
import random
def data_iter(batch_size, features, labels):
    n = len(features)
    idx = list(range(n))
    random.shuffle(idx)
    for i in range(0, n, batch_size):
        batch = torch.tensor(idx[i:min(i + batch_size, n)])
        yield features[batch], labels[batch]
random.seed(0)
torch.manual_seed(0)
X = torch.randn(10, 2)
y = X[:, 0] * 2 - X[:, 1]
for xb, yb in data_iter(4, X, y):
    print(xb.shape, yb.shape)
batches = list(data_iter(3, X, y))
print(len(batches))
print(batches[0][1])
it = data_iter(5, X, y)
first = next(it)
print(first[0])
second = next(it)
print(second[1].shape)
next(it)
