# a learner's exception classes: raised, caught by their own class or a base, reported
class ShapeError(ValueError):
    def __init__(self, got, want):
        super().__init__(f"got {got}, want {want}")
        self.got = got
class Other(Exception):
    pass
def check(n):
    if n != 3:
        raise ShapeError(n, 3)
    return n
try:
    check(2)
except ShapeError as e:
    print("caught", e, e.args, e.got, isinstance(e, ValueError), type(e))
try:
    check(5)
except ValueError as e:
    print("as ValueError", e)
try:
    raise Other
except (KeyError, Other) as e:
    print("other", repr(e))
try:
    raise Other("x") from None
except Exception as e:
    print(e.args)
check(1)
