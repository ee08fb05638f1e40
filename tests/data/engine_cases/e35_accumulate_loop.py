import torch
w = torch.tensor([0.5, -0.3], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
xs = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
ys = torch.tensor([1.0, 0.0, 2.0])
for step in range(3):
    pred = xs @ w + b
    loss = ((pred - ys) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    print(step, loss.item() > 0, loss)
print(w, b)
