import torch
import torch.nn as nn
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
(a * b).sum().backward(inputs=[a])
print(a.grad, b.grad)
(a * b).sum().backward(inputs=[a * 2])
print(a.grad)
for inputs in ([], [a.detach()], [torch.ones(2)]):
    try:
        (a * b).sum().backward(inputs=inputs)
    except RuntimeError as e:
        print(e)
torch.manual_seed(5)
emb = nn.Embedding(6, 2)
print(emb(torch.tensor([[1, 5]])).shape)
emb(torch.tensor([[-1]]))
