A = torch.tensor([[4.0, 1.0], [2.0, 3.0]], requires_grad=True)
d = torch.linalg.det(A)
d
inv = torch.linalg.inv(A)
inv
n = torch.linalg.norm(A)
n
s = torch.linalg.solve(A, torch.tensor([1.0, 2.0]))
s
v = torch.linalg.vector_norm(A, ord=1)
(d + inv.sum() + n + s.sum() + v).backward()
A.grad
