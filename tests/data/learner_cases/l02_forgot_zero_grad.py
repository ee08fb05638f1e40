import torch
w = torch.tensor(2.0, requires_grad=True)
for step in range(3):
    loss = (w * 3 - 1) ** 2
    loss.backward()
    print(step, w.grad)   # grows because I never zero it
    with torch.no_grad():
        w -= 0.01 * w.grad
print(w)
w.grad.zero_()
print(w.grad)
