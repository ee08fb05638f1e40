import numpy as np
import torch
x = torch.arange(4.0)
a = x.numpy()
x + torch.from_numpy(a)
x * 2 == torch.tensor(a * 2)
t = torch.tensor(np.float64(2.5))
t, t.dtype
torch.tensor([np.float32(1.5), np.float32(2.5)]).dtype
float(np.float32(0.1))
np.float64(3).item(), type(np.float64(3).item())
int(np.int64(7)) + 1
range(np.int64(3))
[1, 2, 3][np.int64(1)]
np.array([1, 2, 3])[np.int64(1)]
m = np.array([[1, 2], [3, 4]])
m.shape[0] * m.shape[1]
list(m.shape)
sum(np.array([1.0, 2.0]))
max(np.array([3, 1, 2]))
sorted(np.array([3, 1, 2]))
np.mean([1, 2, 3, 4])
np.array([0.1, 0.2]).round(1)
round(np.float64(2.567), 2)
abs(np.float64(-2.0))
np.float64(1) == 1.0, np.float64(1) < 2
x.detach().numpy().mean()
"%.3f" % np.float64(2 / 3)
"{:.2f}".format(np.float32(1 / 3))
str(np.array([1.5, 2.5]))
np.array([[1.0, 2.0], [3.0, 4.0]]).tolist()
np.array(5.0) + 1
