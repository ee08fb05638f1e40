# An autograd tour in the style of the introductory video tutorials: a chain of ops walked
# through next_functions, gradients piling up without zero_grad, switching tracking off
# three ways, and the functional API (jacobian, vjp) on small functions.
import torch
import math
torch.manual_seed(7)

t = torch.linspace(0., math.pi, steps=9, requires_grad=True)
u = torch.cos(t)
v = 3 * u
w = v - 2
total = w.sum()
print(total)
print(w.grad_fn)
print(w.grad_fn.next_functions)
print(w.grad_fn.next_functions[0][0].next_functions)
print(w.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
print(t.grad_fn)
total.backward()
print(t.grad)


class Small(torch.nn.Module):
    def __init__(self):
        super(Small, self).__init__()
        self.first = torch.nn.Linear(12, 6)
        self.act = torch.nn.ReLU()
        self.second = torch.nn.Linear(6, 3)

    def forward(self, x):
        return self.second(self.act(self.first(x)))


data = torch.randn(5, 12)
target = torch.randn(5, 3)
net = Small()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
print(net.second.weight[0][0:4])
print(net.second.weight.grad)
err = (target - net(data)).pow(2).sum()
print(err)
err.backward()
print(net.second.weight.grad[0][0:4])
opt.step()
print(net.second.weight[0][0:4])
for k in range(3):
    err = (target - net(data)).pow(2).sum()
    err.backward()
print(net.second.weight.grad[0][0:4])
opt.zero_grad()
print(net.second.weight.grad)

a = torch.ones(2, 2, requires_grad=True)
print(a * 4)
a.requires_grad = False
print(a * 4)

p = torch.ones(3, requires_grad=True) * 5
q = torch.ones(3, requires_grad=True) * 2
with torch.no_grad():
    r = p * q
print(r, p * q)


@torch.no_grad()
def combine(x, y):
    return x - y


print(combine(p, q), (lambda x, y: x - y)(p, q))
s = torch.rand(4, requires_grad=True)
print(s, s.detach())


def mix(x, y):
    return x.sin() * 4 + y * y


inputs = (torch.rand(2), torch.rand(2))
print(inputs)
torch.autograd.functional.jacobian(mix, inputs)


def grow(x):
    y = x * 3
    while y.data.norm() < 500:
        y = y * 3
    return y


torch.autograd.functional.vjp(grow, torch.randn(3), v=torch.tensor([1.0, 0.5, 0.25]))
g = torch.randn(3, requires_grad=True)
h = grow(g)
h.backward(torch.tensor([0.2, 2.0, 0.002]))
print(h, g.grad)
