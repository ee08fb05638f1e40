import numpy as np
a = np.ones(3)
b = np.ones(4)
try:
    a + b
except ValueError as e:
    print(e)
try:
    np.ones((2, 3)) @ np.ones((2, 3))
except ValueError as e:
    print(e)
try:
    np.arange(6).reshape(4)
except ValueError as e:
    print(e)
try:
    np.array([[1, 2], [3]])
except ValueError as e:
    print(e)
try:
    np.zeros(3)[5]
except IndexError as e:
    print(e)
try:
    np.dot(np.ones((2, 3)), np.ones((2, 3)))
except ValueError as e:
    print(e)
try:
    np.concatenate([np.ones((2, 2)), np.ones((3, 3))])
except ValueError as e:
    print(e)
try:
    bool(np.ones(2))
except ValueError as e:
    print(e)
try:
    np.zeros(3, dtype='no_such_type')
except TypeError as e:
    print(e)
np.ones((2, 3)).sum(axis=2)
