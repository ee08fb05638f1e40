# A str in an index is PyTorch's TypeError from new(); a list of floats indexes as its
# truncated long values (a float tensor is still refused).
import torch
x = torch.arange(12.).view(3, 4)
x[[0.0, 2.0]]
x[[1.9]]
x[1, [0.5, 3.2]]
x[[0.9, -1.5]]
x[:, [2.5, 1]]
for idx in ["0", (0, "1"), ["a"], [0, "a"], [[0, 1], "b"], b"x", {}, 1j]:
    try:
        x[idx]
    except (TypeError, IndexError) as e:
        print(repr(idx), e)
try:
    x[torch.tensor([0.0, 1.0])]
except IndexError as e:
    print(e)
try:
    x[[5.5]]
except IndexError as e:
    print(e)
try:
    x["a"] = 1
except TypeError as e:
    print(e)
y = torch.zeros(5)
y[[1.0, 3.7]] = 1
y
i = len(x) / 2
x[i]
