# plain classes: attributes, class constants, static/class methods, inheritance, super()
class Point:
    """A point in the plane."""
    dims = 2
    origin_name = "O"

    def __init__(self, x, y=0):
        self.x = x
        self.y = y

    def norm2(self):
        return self.x ** 2 + self.y ** 2

    def shifted(self, dx, dy=0):
        return Point(self.x + dx, self.y + dy)

    @staticmethod
    def origin():
        return Point(0, 0)

    @classmethod
    def diagonal(cls, v):
        return cls(v, v)

p = Point(3, 4)
p.norm2(), p.dims, Point.dims, p.shifted(1).x, Point.origin().norm2()
q = Point.diagonal(2)
type(q), type(q) is Point, isinstance(q, Point)
p.z = 10
p.z + p.x
Point
p.dims = 3
p.dims, Point.dims
Point.dims = 5
Point(0).dims

class Point3(Point):
    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z

    def norm2(self):
        return super().norm2() + self.z ** 2

class Point4(Point3):
    def __init__(self, x, y, z, w):
        super(Point4, self).__init__(x, y, z)
        self.w = w

    def norm2(self):
        return super(Point4, self).norm2() + self.w ** 2

r = Point4(1, 2, 3, 4)
r.norm2(), isinstance(r, Point), isinstance(p, Point3), Point4.diagonal
type(r)
Point3(1, 1, 1).norm2()
f = r.norm2
f()
Point.norm2(p)
getattr(r, 'w'), hasattr(r, 'v'), getattr(r, 'v', None)
setattr(r, 'v', 7)
r.v
class Empty:
    pass
e = Empty()
e.anything = [1, 2]
e.anything
class Counter:
    total = 0
    def __init__(self):
        Counter.total += 1
        self.n = Counter.total
a, b, c = Counter(), Counter(), Counter()
c.n, Counter.total
class Stack:
    def __init__(self):
        self.items = []
    def push(self, v):
        self.items.append(v)
        return self
    def pop(self):
        return self.items.pop()
s = Stack().push(1).push(2)
s.pop(), s.items
print(str(type(s)), repr(Stack))
p.missing
