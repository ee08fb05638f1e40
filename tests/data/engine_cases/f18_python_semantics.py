import torch
import math
xs = [1.0, 2.0, 3.0]
total = 0
for v in xs:
    total += v ** 2
total
math.sqrt(total)
[t * 2 for t in range(3)]
{'a': 1}
(1, 2)
None
x = torch.tensor(xs, requires_grad=True)
y = sum(x * i for i in range(3))
y
len(x), x.shape[0], x.size()
f"{x.sum().item():.3f}"
print("value:", x.sum(), sep=" ")
