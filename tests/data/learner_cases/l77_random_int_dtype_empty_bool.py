import torch
torch.manual_seed(0)
a = torch.tensor([1, 2, 3])
print(torch.rand_like(a.float()).shape, torch.randn(2, dtype=torch.float64).dtype)
print(torch.normal(0, 1, (2,)))
for f in [lambda: torch.rand(2, dtype=torch.int64), lambda: torch.randn_like(a), lambda: torch.rand(2, dtype=torch.bool),
          lambda: torch.normal(0.0, 1.0, size=(2,), dtype=torch.int32)]:
    try:
        f()
    except NotImplementedError as e:
        print(e)
try:
    bool(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(e)
if torch.tensor([]):
    print("never")
