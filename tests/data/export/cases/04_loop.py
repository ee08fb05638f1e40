manual_seed(0)
X = randn(16)
Y = 3 * X + 0.5 + 0.1 * randn(16)
w = zeros(1, requires_grad=True)
b = zeros(1, requires_grad=True)
for step in range(5):
    loss = ((w * X + b - Y) ** 2).mean()
    loss.backward()
    with no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    print(step, round(loss.item(), 4))
w, b
loss.item()
w.grad, (b * 2,)
