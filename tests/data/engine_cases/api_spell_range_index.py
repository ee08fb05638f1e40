x = torch.arange(10) * 10
x[range(3)]
x[range(2, 8, 2)]
m = torch.arange(12).reshape(3, 4)
m[range(3), [0, 1, 2]]
m[range(2)]
m[:, range(1, 3)]
m[range(3), 0] = -1
m
