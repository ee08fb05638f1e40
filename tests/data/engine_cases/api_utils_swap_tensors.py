torch.manual_seed(0)
a = torch.arange(2)
b = torch.arange(3.0, requires_grad=True)
alias = a
torch.utils.swap_tensors(a, b)
a, b, alias
a.requires_grad, b.requires_grad, a.is_leaf
a.sum().backward()
a.grad, b.grad
lin = torch.nn.Linear(1, 2, bias=False)
kept = lin.weight
plain = torch.zeros(2, 1)
torch.utils.swap_tensors(lin.weight, plain)
lin.weight
kept is lin.weight
plain
