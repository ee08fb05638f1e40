import torch
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 0.5, 3.0]])
counts = logits.exp()
probs = counts / counts.sum(1, keepdim=True)
print(probs)
print(torch.allclose(probs, torch.softmax(logits, dim=1)))
print(probs.sum(1))
wrong = counts / counts.sum(1)
print(wrong)
loss = -probs[torch.arange(2), torch.tensor([0, 2])].log().mean()
print(loss)
counts / counts.sum(0, keepdim=True).T
