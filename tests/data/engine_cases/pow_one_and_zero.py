# x ** 1 copies the base and x ** 0 fills ones (nan and inf too), as PyTorch's pow_Tensor_Scalar_out
import torch
x = torch.tensor([float('nan'), float('inf'), -0.0, 0.0, -3.5, 1e-40, 2.0], requires_grad=True)
x ** 1
x ** 0
x.pow(1.0)
x.pow(0.0)
(x ** 2).sum().backward()
x.grad
torch.tensor([2, -3]) ** 1
torch.tensor([2, -3]) ** 0
