class A:
    def f(self, v):
        return v
A().f(1, 2)
