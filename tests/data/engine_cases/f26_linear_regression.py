import torch
torch.manual_seed(1)
X = torch.randn(5, 2)
true_w = torch.tensor([2.0, -3.4])
Y = X @ true_w + 4.2
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(20):
    loss = ((X @ w + b - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
        w.grad.zero_()
        b.grad.zero_()
print(loss)
print(w, b)
