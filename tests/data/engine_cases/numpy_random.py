import numpy as np
np.random.seed(0)
np.random.rand()
np.random.rand(3)
np.random.rand(2, 2)
np.random.randn()
np.random.randn(2, 3)
np.random.random()
np.random.random((2, 2))
np.random.uniform(-1, 1, size=3)
np.random.uniform()
np.random.normal(0, 0.01, (2, 2))
np.random.normal()
np.random.randint(10)
np.random.randint(0, 10, size=5)
np.random.randint(5, size=(2, 3))
np.random.choice(5, 3)
np.random.choice([10, 20, 30], size=4, replace=True)
np.random.choice(5, 3, replace=False)
np.random.choice(3, 5, p=[0.1, 0.3, 0.6])
np.random.permutation(6)
np.random.permutation([1.5, 2.5, 3.5])
x = np.arange(8)
np.random.shuffle(x)
x
items = ['a', 'b', 'c', 'd']
np.random.shuffle(items)
items
np.random.seed(42)
w = np.random.randn(3, 2) * 0.1
w
np.random.random_sample(2)
