import torch
logits = torch.tensor([[2.0, 1.0, 0.1]], requires_grad=True)
probs = torch.softmax(logits, dim=1)
print(probs)
loss = -torch.log(probs[0, 0])
loss.backward()
print(loss, logits.grad)
