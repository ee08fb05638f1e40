import torch
scores = torch.tensor([[0.3, -1.2, 2.0], [1.1, 0.4, -0.7]], requires_grad=True)
keep = torch.tensor([[True, False, True], [False, True, True]])
filled = scores.masked_fill(~keep, float("-inf"))
print(filled)
print(filled.softmax(-1))
fill = torch.tensor(0.25, requires_grad=True)
mixed = scores.masked_fill(keep, fill)
print(mixed)
(mixed * torch.arange(6.0).view(2, 3)).sum().backward()
print(fill.grad)
print(scores.grad)
h = scores.detach().clone()
print(h.masked_fill_(h < 0, 0.0))
print(torch.masked_fill(h, torch.tensor([True, False, False]), -1))
for mask, value in [([True, False, True], 1.0), (keep.float(), 1.0), (keep, "x"), (keep, torch.ones(3))]:
    try:
        scores.masked_fill(mask, value)
    except (TypeError, RuntimeError) as err:
        print(err)
try:
    scores.masked_fill_(keep, 0.0)
except RuntimeError as err:
    print(err)
