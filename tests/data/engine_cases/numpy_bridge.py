import torch
import numpy as np
_ = torch.manual_seed(0)
data = [[1, 2], [3, 4]]
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
x_np
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
n[0] = 10
t
t.mul_(2)
n
n += 1
t
u = torch.as_tensor(n)
u[1] = -1
n
v = torch.tensor(n)
v[2] = -2
n
torch.tensor(np.array([1.0, 2.0], dtype=np.float32))
torch.from_numpy(np.arange(3))
torch.from_numpy(np.zeros(2, dtype=np.float32)).dtype
w = torch.randn(2, 3)
w.numpy()
w.numpy().dtype
isinstance(w.numpy(), np.ndarray)
x = torch.linspace(0, 1, 4)
y = x.numpy() * 2
y
isinstance(y, np.ndarray)
torch.from_numpy(y) + x
np.exp(torch.arange(3.0).numpy())
np.array(torch.tensor([1.5, 2.5]))
torch.tensor([1, 2]).numpy().sum()
torch.ones(2, 2).numpy().T
