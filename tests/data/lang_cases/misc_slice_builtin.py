import torch
x = torch.arange(10).reshape(2, 5)
x[:, slice(1, 4)]
s = slice(None, None, 2)
s
s.start, s.stop, s.step
x[slice(None), s]
x[(slice(0, 1), 2)]
type(s), isinstance(s, slice)
print(s, [slice(3)])
[0, 1, 2, 3, 4][slice(1, 3)]
'abcdef'[slice(None, None, -1)]
slice(1, 10, 3).indices(5), slice(None, None, -1).indices(4)
slice(1, 2, 3) == slice(1, 2, 3), slice(1, 2) != slice(1, 2, None)
x[slice(0, 2)].sum()
