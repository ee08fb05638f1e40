# linalg.cholesky / cholesky_ex on matrices that are not positive-definite: LAPACK info, partial factor, the failing order
import torch
torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
torch.linalg.cholesky_ex(torch.tensor([[[4.0, 2.0], [2.0, 3.0]], [[1.0, 2.0], [2.0, 1.0]]])).info
torch.linalg.cholesky_ex(torch.tensor([[-1.0, 2.0], [2.0, 1.0]]))
try:
    torch.linalg.cholesky(torch.tensor([[[4.0, 2.0], [2.0, 3.0]], [[1.0, 2.0], [2.0, 1.0]]]))
except Exception as e:
    print(e)
torch.linalg.cholesky(torch.tensor([[1.0, 2.0, 0.0], [2.0, 5.0, 1.0], [0.0, 1.0, 0.5]]))
