class A:
    x = 1
A.y
