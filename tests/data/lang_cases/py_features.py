# Python features learners' code uses
import random
import math

print("{} + {} = {}".format(1, 2, 3))
print("{0:>8.3f}|{1!r}|{name:^7}|{0:e}".format(math.pi, "x", name="ab"))
print("{:{}}|{:.{prec}f}|{{}}".format(3.5, 8, 2.0, prec=3))
print("Epoch {:3d}: loss {:.4f}, acc {:.1%}".format(5, 0.123456, 0.9))
template = "{word}: {count:05d}"
print(template.format(word="emma", count=42))
print("{:,}".format(1234567), "{:+.2e}".format(-0.000123), "{:>10}".format("right"))

class Box:
    def __init__(self):
        self.size = 3
b = Box()
print(getattr(b, "size"), hasattr(b, "size"), hasattr(b, "colour"), getattr(b, "colour", "red"))
setattr(b, "colour", "blue")
print(b.colour)
t = torch.ones(2)
print(getattr(t, "shape"), hasattr(t, "grad"), getattr(torch, "float32"))

print(list(map(lambda v: v * v, [1, 2, 3])), list(map(str, range(3))))
print(list(map(lambda a, b: a + b, [1, 2], [10, 20])))
print(list(filter(lambda v: v % 2, range(7))), list(filter(None, [0, "", "a", 3])))
it = iter(["a", "b"])
print(next(it), next(it), next(it, "end"))
print(id(b) == id(b), id(b) != id(Box()))

def gen_squares(n):
    for i in range(n):
        yield i * i
g = gen_squares(4)
print(next(g), list(g))
print(sum(x * x for x in range(10)), max(w for w in ["bb", "a", "ccc"]))
evens = (i for i in range(10) if i % 2 == 0)
print(next(evens), next(evens), list(evens))

def chunked(seq, n):
    buf = []
    for item in seq:
        buf.append(item)
        if len(buf) == n:
            yield buf
            buf = []
    if buf:
        yield buf
print(list(chunked(range(7), 3)))

def nested():
    yield from range(2)
    yield from "ab"
print(list(nested()))

data = [3, 8, 1, 9]
if (n := len(data)) > 3:
    print(f"{n} items")
print([y for x in data if (y := x * 10) > 20], y)
while (item := data.pop()) != 8:
    print("popped", item)

def make_counter():
    count = 0
    def increment(step=1):
        nonlocal count
        count += step
        return count
    return increment
counter = make_counter()
counter()
counter()
print(counter(10))

def accumulate():
    total = 0
    history = []
    def add(v):
        nonlocal total
        total = total + v
        history.append(total)
    for v in [1, 2, 3]:
        add(v)
    return total, history
print(accumulate())

random.seed(42)
words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia"]
random.shuffle(words)
print(words)
print(random.random(), random.randint(1, 10), random.choice(words))
print(random.sample(range(100), 5), random.uniform(-1, 1), random.gauss(0, 1))
print(random.choices(["a", "b", "c"], weights=[1, 2, 3], k=5), random.randrange(0, 50, 5))
from random import shuffle, seed
seed(1)
xs = list(range(10))
shuffle(xs)
print(xs)
n1 = int(0.8 * len(words))
print(words[:n1], words[n1:])
g
