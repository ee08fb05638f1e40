import torch
_ = torch.manual_seed(3)
for n in (9, 15, 31, 33, 100):
    for trial in range(4):
        x = torch.randn(n, requires_grad=True)
        w = torch.randn(n)
        (torch.softmax(x, 0) * w).sum().backward()
        print(n, x.grad.tolist())
logits = torch.randn(1, 10, requires_grad=True)
probs = logits.softmax(-1)
probs[0, 3].backward()
logits.grad
