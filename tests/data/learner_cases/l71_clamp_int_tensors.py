import torch
a = torch.tensor([1, 5, 10])
print(a.clamp(2, 8))
print(a.clamp(2.5, 8))
print(a.clamp(min=2.5), a.clip(0, 3.0))
print(a.clamp_min(1.5), a.clamp_max(torch.tensor(2.5)))
print(torch.tensor([True, False]).clamp(0), torch.tensor([True, False]).clamp(0.5))
print(torch.tensor([1, 2], dtype=torch.int32).clamp(0, 1), torch.tensor([1, 2], dtype=torch.float64).clamp(1.5))
b = a.clone()
b.clamp_(0, 4)
print(b)
for f in [lambda: a.clone().clamp_max_(torch.tensor(1.5)), lambda: torch.tensor([True]).clamp_(0)]:
    try:
        f()
    except RuntimeError as e:
        print(e)
a.clamp_(2.5, 8)
