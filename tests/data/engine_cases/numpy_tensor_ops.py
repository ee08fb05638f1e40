import numpy as np
import torch
a = np.ones(2)
t = torch.ones(2)
t * a
t + a
t - a
t * np.arange(2)
a / t
t @ a
t * np.float32(2)
(t * np.float64(2)).dtype
for f in [lambda: a * t, lambda: a - t, lambda: a ** t]:
    try:
        f()
    except TypeError as e:
        print(str(e).split(":")[0])
w = torch.ones(2, requires_grad=True)
w * a
