import torch
A = torch.tensor([[4.0, 1.0, -2.0], [1.0, 3.0, 0.5], [-2.0, 0.5, 5.0]], requires_grad=True)
B = torch.tensor([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]], requires_grad=True)
torch.linalg.inv_ex(A)
torch.linalg.solve_ex(A, B).result
L, info = torch.linalg.cholesky_ex(A)
L, info
L.sum().backward()
A.grad
A.grad = None
X = torch.linalg.solve_triangular(A.triu(), B, upper=True)
X
X.sum().backward()
A.grad, B.grad
torch.linalg.solve_triangular(A.tril(), B.mT, upper=False, left=False, unitriangular=True)
LU, pivots = torch.linalg.lu_factor(A)
LU, pivots
P, Lo, U = torch.linalg.lu(A)
P, Lo, U
torch.linalg.lu_factor_ex(A).info
torch.linalg.lu_solve(LU, pivots, B)
A.grad = None
(Lo.sum() + U.sum()).backward()
A.grad
torch.linalg.cond(A), torch.linalg.cond(A, 1), torch.linalg.cond(A, "fro")
torch.linalg.vander(torch.tensor([1.0, 2.0, 3.0])), torch.linalg.vander(torch.tensor([2, 3]), N=4)
T = torch.arange(36.0).reshape(6, 2, 3) + torch.eye(6).reshape(6, 2, 3) * 10
torch.linalg.tensorinv(T, ind=1).shape
torch.linalg.tensorsolve(T.reshape(2, 3, 6), torch.ones(2, 3)).shape
torch.linalg.tensorinv(torch.ones(4, 6, 8, 3), ind=2)
