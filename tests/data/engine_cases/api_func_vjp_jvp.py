from torch.func import vjp, jvp, grad, jacrev, hessian, vmap

def f(x, y):
    return (x * y).tanh() + x ** 2

x = torch.tensor([0.5, -1.0, 2.0])
y = torch.tensor([1.5, 0.25, -0.5])
out, vjp_fn = vjp(f, x, y)
out
vjp_fn(torch.ones(3))
rows, = vmap(vjp(lambda t: f(t, y), x)[1])(torch.eye(3))
rows
value, tangent = jvp(f, (x, y), (torch.ones(3), torch.zeros(3)))
value, tangent
jvp(grad(lambda t: t.sin().sum()), (x,), (torch.tensor([1.0, 2.0, 3.0]),))[1]
_, vjp_g = vjp(grad(lambda t: t.sin().sum()), x)
vjp_g(torch.tensor([1.0, 2.0, 3.0]))
jw, jb = jacrev(lambda w, b, v: (w @ v + b).tanh(), argnums=(0, 1))(torch.eye(2), torch.ones(2), torch.tensor([0.5, -0.5]))
jw.shape, jb
hessian(lambda v: (v ** 3).sum() * v, argnums=0)(torch.tensor([1.0, 2.0])).shape
hessian(lambda v: (v ** 3).sum())(torch.tensor([1.0, 2.0]))
jvp(f, x, y)
