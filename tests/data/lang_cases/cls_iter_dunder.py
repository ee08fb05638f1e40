# A loader object a for-loop can walk again and again: __iter__ hands out a fresh generator
# (d2l's SeqDataLoader), or the iterator of a list, or is a generator itself
import torch


def windows(seq, size):
    for i in range(0, len(seq) - size, size):
        yield seq[i:i + size], seq[i + 1:i + size + 1]


class WindowLoader:
    def __init__(self, seq, size):
        self.seq, self.size = seq, size

    def __iter__(self):
        return windows(self.seq, self.size)


loader = WindowLoader(torch.arange(10), 3)
for epoch in range(2):
    for X, Y in loader:
        print(epoch, X.tolist(), Y.tolist())
len(list(loader))


class Batches:
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(self.items)


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        k = self.n
        while k > 0:
            yield k
            k -= 1


sum(Batches([1.5, 2.5])), list(Countdown(3)), [c * 2 for c in Countdown(2)]
first, *rest = Countdown(4)
first, rest
torch.stack(list(Batches([torch.ones(2), torch.zeros(2)])))
max(Countdown(5)), sorted(Countdown(3)), 2 in Countdown(3)


class Broken:
    def __iter__(self):
        return 42


for item in Broken():
    print(item)
