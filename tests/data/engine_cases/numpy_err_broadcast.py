import numpy as np
x = np.linspace(0, 1, 3)
w = np.ones((2, 2))
x * w
