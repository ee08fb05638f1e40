import torch
x = torch.ones(2, 3)
for f in [lambda: x.argmax(0, 1, 2), lambda: x.flatten(0, 1, 2), lambda: torch.argmax(x, 0, 1, 2), lambda: x.topk(1, 0, True, True, 5)]:
    try:
        f()
    except Exception as e:
        print(str(e).splitlines()[0])
def mine(a, b=1):
    return a
mine(1, 2, 3)
