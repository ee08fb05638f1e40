import torch
x = torch.arange(6.0).reshape(2, 3)
calls = [lambda: x.narrow(1, 2, 3), lambda: x.narrow(1, -1, 1), lambda: x.narrow(1, -4, 1), lambda: x.narrow(1, 4, 0),
         lambda: x.narrow(0, 0, -1), lambda: torch.tensor(1.0).narrow(0, 0, 1), lambda: x.narrow(1, 3, 0),
         lambda: torch.narrow(x, 0, 1, 1), lambda: x.index_select(0, torch.tensor([5])),
         lambda: x.index_select(1, torch.tensor([-1])), lambda: x.index_select(1, torch.tensor([2, 0]))]
for i, f in enumerate(calls):
    try:
        print(i, f())
    except (RuntimeError, IndexError) as e:
        print(i, type(e), e)
for t in [torch.arange(3.0), torch.arange(6).reshape(2, 3), torch.arange(24.0).reshape(2, 3, 4)]:
    for d in [0, -1]:
        try:
            t.index_select(d, torch.tensor([5, -1]))
        except (RuntimeError, IndexError) as e:
            print(t.dim(), d, type(e), e)
x.narrow(0, 1, 2)
