import torch
torch.manual_seed(33)
X = torch.randn(6, 2)
Y = (X[:, 0] * X[:, 1] > 0).long()
W1 = torch.randn(2, 8) * 0.5
b1 = torch.zeros(8)
W2 = torch.randn(8, 2) * 0.5
b2 = torch.zeros(2)
params = [W1, b1, W2, b2]
for p in params:
    p.requires_grad = True
print(sum(p.nelement() for p in params))
for it in range(10):
    h = torch.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    loss = torch.nn.functional.cross_entropy(logits, Y)
    for p in params:
        p.grad = None
    loss.backward()
    for p in params:
        p.data += -0.5 * p.grad
    if it % 3 == 0:
        print(it, f"{loss.item():.4f}")
print(W1.grad.shape, b2.grad)
