import torch
def t(f):
    try:
        print(f())
    except Exception as e:
        print(e)
def a():
    y = torch.zeros(2, 3); y[0] = torch.ones(1, 3); return y
def b():
    y = torch.zeros(2, 3); y[:, 0] = torch.ones(2, 1); return y
def c():
    y = torch.zeros(2, 3); y[y == 0] = torch.ones(6); return y
def d():
    y = torch.zeros(4); y[[0, 1]] = torch.ones(1); return y
def e():
    y = torch.zeros(4); y[[0, 1]] = torch.ones(3); return y
def f():
    y = torch.zeros(2, 3); y[0, 1:] = torch.ones(3); return y
def g():
    y = torch.zeros(2, 3); y[:] = torch.ones(3); return y
def h():
    y = torch.zeros(3); y[y == 0] = torch.ones(2); return y
def i():
    y = torch.zeros(3); y[torch.tensor([0])] = torch.ones(2); return y
for fn in [a, b, c, d, e, f, g, h, i]:
    t(fn)
