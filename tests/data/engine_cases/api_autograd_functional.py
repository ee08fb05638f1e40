def cube(x):
    return x ** 3

def pair(x, y):
    return x * y + y.exp()

x = torch.tensor([1.0, 2.0])
v = torch.tensor([1.0, 0.5])
torch.autograd.functional.vjp(cube, x, v)
torch.autograd.functional.jvp(cube, x, v)
torch.autograd.functional.vjp(pair, (x, torch.tensor([0.0, 1.0])), v)
torch.autograd.functional.jvp(pair, (x, torch.tensor([0.0, 1.0])), (v, v))
def energy(x):
    return (x ** 3).sum()
torch.autograd.functional.hvp(energy, x, v)
torch.autograd.functional.vhp(energy, x, v)
torch.autograd.functional.vjp(energy, x)
torch.autograd.functional.jacobian(cube, x)
torch.autograd.functional.hessian(energy, x)
torch.autograd.functional.jacobian(pair, (x, x))
