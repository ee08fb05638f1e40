torch.manual_seed(0)
A = torch.tensor([[0.1, 0.2], [0.3, 0.4]], requires_grad=True)
E = torch.matrix_exp(A)
E
E.sum().backward()
A.grad
torch.linalg.matrix_exp(torch.zeros(2, 2))
torch.eye(3).matrix_exp()
B = torch.tensor([[[1.0, 2.0], [0.0, 1.0]], [[0.5, 0.0], [0.0, -0.5]]], dtype=torch.float64)
B.matrix_exp()
torch.matrix_exp(torch.ones(2, 2, dtype=torch.long))
