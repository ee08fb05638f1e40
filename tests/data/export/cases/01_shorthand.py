# gradrepl shorthand, as typed at the prompt
x = tensor([1., 2., 3.], requires_grad=True)
y = exp(x) * sigmoid(x); z = y.sum()
z
z.backward()
x.grad
w = ones(2, 3) * 0.5
w.requires_grad_(True)
"a string is echoed with its quotes"
x.grad.zero_()
(x ** 3).mean().backward()
x.grad
not_defined_here + 1
print(x.grad.tolist())
