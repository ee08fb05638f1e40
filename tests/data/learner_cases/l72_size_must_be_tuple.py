import torch
torch.manual_seed(10)
print(torch.randint(0, 10, (2, 3)))
print(torch.randint(5, (4,)), torch.randint(3, size=(2,)))
print(torch.randn(3).shape, torch.zeros(2, 3).shape, torch.randn(size=(2,)).shape)
print(torch.full((2,), 7))
for f in [lambda: torch.randint(10, 3), lambda: torch.zeros(size=3), lambda: torch.full(3, 1.0),
          lambda: torch.randint(10, size=3), lambda: torch.empty(size=2)]:
    try:
        f()
    except TypeError as e:
        print(e)
torch.randint(0, 10)
