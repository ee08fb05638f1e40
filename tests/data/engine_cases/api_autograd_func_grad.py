from torch.func import grad, vmap
def f(x):
    return (x.sin() * x).sum()
g = grad(f)
g(torch.tensor([0.0, 1.0, 2.0]))
torch.func.grad(lambda x: x ** 2)(torch.tensor(3.0))
def two(a, b):
    return (a * b).sum()
grad(two, argnums=1)(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
grad(two, argnums=(0, 1))(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
grad(grad(lambda x: x ** 3))(torch.tensor(2.0))
vmap(torch.dot)(torch.ones(3, 2), torch.arange(6.).reshape(3, 2))
vmap(lambda r: r.sum())(torch.arange(6.).reshape(2, 3))
vmap(lambda r: r * 2, in_dims=1)(torch.arange(6.).reshape(2, 3))
torch.vmap(lambda a, b: a + b, in_dims=(0, None))(torch.ones(2, 3), torch.arange(3.))
torch.func.grad_and_value(f)(torch.tensor([1.0]))
vmap(grad(lambda x: (x ** 2).sum()))(torch.arange(4.).reshape(2, 2))
