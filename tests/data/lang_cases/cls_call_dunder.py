# Objects called like functions: a neuron and a layer of them (micrograd's shape), and
# d2l's scratch RNN wrapper that calls its forward function
import torch

torch.manual_seed(1)


class Neuron:
    def __init__(self, nin):
        self.w = torch.randn(nin, requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)

    def __call__(self, x):
        return torch.tanh(x @ self.w + self.b)

    def parameters(self):
        return [self.w, self.b]


class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else torch.cat(outs)

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


layer = Layer(3, 2)
x = torch.tensor([1.0, -2.0, 0.5])
out = layer(x)
out
out.sum().backward()
[p.grad for p in layer.parameters()]
callable(layer), callable(x), callable(Layer)
list(map(Neuron(2), [torch.ones(2), -torch.ones(2)]))


class ModelScratch:
    def __init__(self, forward_fn, scale):
        self.forward_fn, self.scale = forward_fn, scale

    def __call__(self, X, state=None):
        return self.forward_fn(X * self.scale, state)


model = ModelScratch(lambda X, s: (X.sum(), s), 2)
model(torch.arange(4.))
model(torch.arange(4.), state="h")
model()
