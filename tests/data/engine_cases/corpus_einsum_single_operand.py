# einsum that sums letters away from a single operand (and with a second operand)
import torch
grid = torch.arange(12.).reshape(3, 4)
torch.einsum("rc->c", grid)
torch.einsum("rc->r", grid)
cube = torch.arange(24.).reshape(2, 3, 4)
torch.einsum("abc->c", cube)
torch.einsum("abc->ba", cube)
torch.einsum("abc,c->b", cube, torch.tensor([1., -1., 2., 0.5]))
torch.einsum("kk->", torch.arange(16.).reshape(4, 4))
w = torch.arange(6., requires_grad=True)
s = torch.einsum("ij->j", w.view(2, 3) * 2)
s
s.sum().backward()
w.grad
