x = torch.tensor([1., 2., 3.], requires_grad=True)
a, b, c = x.split(1)
torch.autograd.backward([a, c], [torch.ones(1), torch.full((1,), 2.0)])
print(x.grad)
print(torch.autograd.grad([a, b], [x], [torch.ones(1), torch.ones(1)]))
y = x * 2
p, q = y.unbind(0)[:2]
print(torch.autograd.grad([p, q], x))
