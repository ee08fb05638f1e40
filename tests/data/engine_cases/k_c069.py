import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0])
torch.Tensor([1]).backward(retain_graph=5)
