import torch
A = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], requires_grad=True)
L = torch.cholesky(A)
L
U = A.cholesky(upper=True)
U
B = torch.tensor([[1.0, 2.0], [0.5, -1.0], [2.0, 0.3]], requires_grad=True)
X = torch.cholesky_solve(B, L)
X
X.sum().backward()
A.grad, B.grad
Li = torch.cholesky_inverse(L)
Li
Lu = L.detach().requires_grad_()
Ui = Lu.cholesky_inverse()
(Ui * torch.arange(9.).reshape(3, 3)).sum().backward()
Lu.grad
Ui2 = torch.cholesky_inverse(U.detach(), upper=True)
Ui2
Y = B.detach().cholesky_solve(U.detach(), upper=True)
Y
T = torch.tensor([[2.0, 0.5, 1.0], [0.0, 1.5, -0.3], [0.0, 0.0, 3.0]], requires_grad=True)
sol = torch.triangular_solve(B, T)
sol
sol.solution.grad_fn
(sol.solution * 2).sum().backward()
T.grad
torch.triangular_solve(B.detach(), T.detach().t(), upper=False)
torch.triangular_solve(B.detach(), T.detach(), transpose=True, unitriangular=True).solution
M = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5], [7.0, 8.5, 10.0]], requires_grad=True)
LU, piv = torch.lu(M)
LU, piv
LU.grad_fn
P, Lo, Up = torch.lu_unpack(LU, piv)
P, Lo, Up
Lo.grad_fn
x = torch.lu_solve(B, LU, piv)
x
x.grad_fn
(x.sum() + Up.sum() + Lo.sum()).backward()
M.grad
LU2, piv2, info = torch.lu(M.detach(), get_infos=True)
info
M.detach().lu()
