# Optimizers written by hand on a 2-d quadratic, the way d2l's optimization chapter teaches them
# (own program in that style): each update returns the new state, a loop records the path.
import math
import torch

def f2(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2

def run(update, steps=20):
    x1, x2, s1, s2 = -5.0, -2.0, 0.0, 0.0
    path = [(x1, x2)]
    for i in range(steps):
        x1, x2, s1, s2 = update(x1, x2, s1, s2)
        path.append((x1, x2))
    print(f'after {steps} steps: x1 {x1:f}, x2 {x2:f}')
    return path

lr, beta, gamma, eps = 0.4, 0.5, 0.9, 1e-6

def momentum(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - lr * v1, x2 - lr * v2, v1, v2

def adagrad(x1, x2, s1, s2):
    g1, g2 = 0.2 * x1, 4 * x2
    s1 += g1 ** 2
    s2 += g2 ** 2
    return x1 - lr / math.sqrt(s1 + eps) * g1, x2 - lr / math.sqrt(s2 + eps) * g2, s1, s2

def rmsprop(x1, x2, s1, s2):
    g1, g2 = 0.2 * x1, 4 * x2
    s1 = gamma * s1 + (1 - gamma) * g1 ** 2
    s2 = gamma * s2 + (1 - gamma) * g2 ** 2
    return x1 - lr / math.sqrt(s1 + eps) * g1, x2 - lr / math.sqrt(s2 + eps) * g2, s1, s2

p = run(momentum)
len(p), p[-1]
run(adagrad)[5]
run(rmsprop, steps=30)[-1]

# the same on tensors: minibatch-style states kept in a list of (w, b) pairs
torch.manual_seed(3)
X = torch.normal(0, 1, (100, 2))
y = X[:, 0] * 2 - X[:, 1] * 3.4 + 4.2 + torch.normal(0, 0.01, (100,))
w = torch.normal(0, 0.01, (2,), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
states = [torch.zeros_like(w), torch.zeros_like(b)], [torch.zeros_like(w), torch.zeros_like(b)]

def adam(params, states, lr, t, beta1=0.9, beta2=0.999):
    with torch.no_grad():
        for p, v, s in zip(params, states[0], states[1]):
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_hat = v / (1 - beta1 ** t)
            s_hat = s / (1 - beta2 ** t)
            p[:] -= lr * v_hat / (torch.sqrt(s_hat) + eps)
        for p in params:
            p.grad.data.zero_()

t = 0
for epoch in range(3):
    for i in range(0, 100, 10):
        l = ((X[i:i + 10, 0] * w[0] + X[i:i + 10, 1] * w[1] + b - y[i:i + 10]) ** 2 / 2).mean()
        l.backward()
        t += 1
        adam([w, b], states, 0.1, t)
    print(f'epoch {epoch + 1}, loss {float(((X[:, 0] * w[0] + X[:, 1] * w[1] + b - y) ** 2 / 2).mean()):.6f}')
w, b
states[1][0]
