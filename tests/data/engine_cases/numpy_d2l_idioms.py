import numpy as np
import torch
X = torch.arange(12, dtype=torch.float32).reshape(3, 4)
A = X.numpy()
B = torch.from_numpy(A)
isinstance(A, np.ndarray), type(B)
a = torch.tensor([3.5])
a, a.item(), float(a), int(a)
def f(x):
    return 3 * x ** 2 - 4 * x
for h in 10.0 ** np.arange(-1, -6, -1):
    print(f'h={h:.5f}, numerical limit={(f(1+h)-f(1))/h:.5f}')
x = np.arange(0, 3, 0.1)
f(x)[:5]
np.random.seed(0)
fair_probs = [1.0 / 6] * 6
np.random.multinomial(1, fair_probs)
