# torch.Tensor(...) with keywords it does not take: PyTorch marks the signatures whose argument
# count (the `*` counted) equals the call's, and names torch.Size by its full name.
import torch
x = torch.ones(2)
for args, kw in [((), {"requires_grad": True}), (([1, 2],), {"requires_grad": True}),
                 ((2, 3), {"requires_grad": True}), ((2, 3, 4), {"dtype": torch.float64}),
                 ((x,), {"requires_grad": True}), (([1],), {"device": "cpu", "requires_grad": True}),
                 (([1],), {"dtype": torch.float, "requires_grad": True}), ((x.shape,), {"foo": 1})]:
    try:
        torch.Tensor(*args, **kw)
    except TypeError as e:
        print(e)
torch.FloatTensor([1, 2], dtype=torch.float64)
