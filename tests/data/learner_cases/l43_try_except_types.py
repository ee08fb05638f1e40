import torch
x = torch.ones(2, 3)
y = torch.ones(4, 2)
try:
    x @ y
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2]).float().mean().backward()
except RuntimeError as e:
    print("caught:", e)
try:
    torch.ones(3)[5]
except IndexError as e:
    print(type(e).__name__, e)
try:
    torch.ones(2, 2).item()
except RuntimeError as err:
    print(err)
try:
    torch.ones(2).view(3)
except Exception as e:
    print(type(e).__name__)
    print(str(e))
for shape in [(2, 3), (3, 2), (6,)]:
    try:
        r = torch.arange(6).reshape(*shape) @ torch.ones(3, dtype=torch.long)
        print(shape, r)
    except RuntimeError as e:
        print(shape, "failed:", e)
try:
    int("abc")
except ValueError as e:
    print(e)
finally:
    print("done")
torch.zeros(2, 3).reshape(4, 2)
