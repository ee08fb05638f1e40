# Convolution by hand and a small CNN's layer-by-layer shapes (own program in the style of d2l's
# convolution chapters): cross-correlation, learning an edge kernel, padding/stride, pooling.
import torch
from torch import nn

def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y

X = torch.arange(16.0).reshape((4, 4))
corr2d(X, torch.tensor([[0.0, 1.0], [2.0, 3.0]]))
X = torch.ones((6, 8))
X[:, 2:6] = 0
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
Y
corr2d(X.t(), K)

torch.manual_seed(11)
conv2d = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    conv2d.weight.data[:] -= 3e-2 * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f'epoch {i + 1}, loss {l.sum():.3f}')
conv2d.weight.data.reshape((1, 2))

def out_shape(layer, X):
    return layer(X.reshape((1, 1) + X.shape)).shape[2:]

X = torch.rand(size=(8, 8))
out_shape(nn.Conv2d(1, 1, kernel_size=3, padding=1), X)
out_shape(nn.Conv2d(1, 1, kernel_size=(5, 3), padding=(2, 1)), X)
out_shape(nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4)), X)

net = nn.Sequential(nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
                    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
                    nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(), nn.Linear(120, 10))
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(type(layer), 'output shape: \t', X.shape)
X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))
nn.MaxPool2d(3, padding=1, stride=2)(X)
X = torch.cat((X, X + 1), 1)
nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))(X)
nn.AdaptiveAvgPool2d((1, 1))(X).flatten(1)
