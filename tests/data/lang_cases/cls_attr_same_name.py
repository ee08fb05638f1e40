# A namespace class whose attributes take the names of outside things (as d2l's aliases do)
import torch


class Counter:
    def __init__(self):
        self.n = 0


lr = 0.1


class helpers:
    Counter = Counter
    lr = lr * 3
    tensor = torch.tensor

    @staticmethod
    def double(x):
        return helpers.tensor(x) * 2


c = helpers.Counter()
print(isinstance(c, Counter), c.n, helpers.lr, lr)
helpers.double([1.0, 2.5])
