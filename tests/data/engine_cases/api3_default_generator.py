# torch.default_generator is the generator torch.rand draws from: seeding it, saving and restoring
# its state as a uint8 tensor; torch.Generator is a class (isinstance, type)
import torch
g = torch.default_generator
print(type(g), isinstance(g, torch.Generator), g.device, torch.Generator)
print(g.manual_seed(3) is g, torch.initial_seed(), g.initial_seed())
s = g.get_state()
print(s.dtype, s.shape, s[:8], torch.equal(s, torch.get_rng_state()))
a = torch.rand(2)
print(g.set_state(s) is g)
print(torch.rand(2), a)
torch.manual_seed(5)
print(g.initial_seed())
h = torch.Generator().manual_seed(5)
print(torch.rand(2, generator=h), torch.rand(2))
print(torch.equal(h.get_state(), torch.get_rng_state()))
g2 = torch.Generator(device="cpu")
print(isinstance(g2, torch.Generator), type(g2) is torch.Generator)
print(g2.set_state(torch.get_rng_state()) is g2)
print(torch.rand(1, generator=g2), torch.rand(1))
try:
    g.set_state(3)
except TypeError as e:
    print(e)
try:
    g.set_state(torch.zeros(3))
except TypeError as e:
    print(e)
g.set_state(torch.zeros(3, dtype=torch.uint8))
