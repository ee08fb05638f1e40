import torch
class Neuron:
    def __init__(self, n_in):
        self.w = torch.randn(n_in, requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)

    def forward(self, x):
        return torch.tanh(x @ self.w + self.b)

    def parameters(self):
        return [self.w, self.b]

torch.manual_seed(28)
n = Neuron(3)
x = torch.tensor([1.0, -2.0, 0.5])
out = n.forward(x)
print(out)
out.backward()
for p in n.parameters():
    print(p.grad)
print(len(n.parameters()))
print(n.w.shape, n.b)
n.forward(torch.ones(4))
