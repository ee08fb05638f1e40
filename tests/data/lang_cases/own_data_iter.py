# d2l-style minibatch reading: a generator that shuffles the example indices with
# Python's random module, and minibatch SGD on a hand-written linear model
import random
import torch
random.seed(7)
torch.manual_seed(7)


def make_points(slope, offset, count):
    X = torch.normal(0, 1, (count, len(slope)))
    y = torch.matmul(X, slope) + offset
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


true_slope = torch.tensor([1.5, -0.8, 2.0])
true_offset = -1.25
features, targets = make_points(true_slope, true_offset, 60)
features.shape, targets.shape


def batches(size, features, targets):
    n = len(features)
    order = list(range(n))
    random.shuffle(order)
    for start in range(0, n, size):
        chosen = torch.tensor(order[start: min(start + size, n)])
        yield features[chosen], targets[chosen]


first = next(batches(8, features, targets))
first[0].shape, first[1].shape
order = list(range(10))
random.shuffle(order)
order
w = torch.normal(0, 0.01, size=(3, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def model(X):
    return X @ w + b


def half_squared(pred, y):
    return (pred - y.reshape(pred.shape)) ** 2 / 2


def step(params, lr, size):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad / size
            p.grad.zero_()


for epoch in range(4):
    for X, y in batches(8, features, targets):
        half_squared(model(X), y).sum().backward()
        step([w, b], 0.1, 8)
    with torch.no_grad():
        full = half_squared(model(features), targets)
        print(f"epoch {epoch + 1}, loss {float(full.mean()):f}")
print(w.reshape(true_slope.shape) - true_slope, b - true_offset)
