import torch
import math
a = torch.linspace(0., 2. * math.pi, steps=5)
print(a)
import matplotlib.pyplot as plt
