import torch
a = torch.tensor([7, -7, 5])
b = torch.tensor([2, 2, -3])
print(torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"), a / b)
em = torch.tensor([])
print(torch.zeros(0, 3).argmax(1), torch.zeros(0, 2).amax(1))
for f in [lambda: em.argmax(), lambda: em.argmin(0), lambda: torch.zeros(2, 0).max(1), lambda: em.amax(),
          lambda: em.amin(), lambda: torch.zeros(0, 2).amax(0), lambda: em.max(), lambda: torch.zeros(2, 0).min(dim=1),
          lambda: a.div(2, rounding_mode="x")]:
    try:
        f()
    except (IndexError, RuntimeError) as err:
        print(type(err) is IndexError, err)
torch.div(a, b, rounding_mode="round")
