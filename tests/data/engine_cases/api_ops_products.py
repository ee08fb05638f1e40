a = torch.arange(24.).reshape(2, 3, 4)
b = torch.arange(8.).reshape(2, 4, 1)
torch.bmm(a, b)
a.bmm(b).shape
torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(3, 2))
torch.einsum("bij,bjk->bik", a, b).shape
torch.einsum("ii", torch.eye(3) * 2)
torch.einsum("i,i->", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]))
torch.einsum("ij->ji", [torch.ones(1, 2)])
torch.einsum("...ij->...ji", a).shape
torch.inner(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
torch.inner(torch.ones(2, 3), torch.ones(4, 3)).shape
torch.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]), dim=0)
torch.linalg.cross(torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[4.0, 5.0, 6.0]]))
torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
torch.diff(torch.tensor([1, 4, 9, 16]))
torch.diff(torch.tensor([[1.0, 2.0], [5.0, 3.0]]), dim=0)
torch.diff(torch.tensor([1, 2, 4]), n=2)
torch.tensordot(torch.ones(2, 3), torch.ones(3, 4), dims=1).shape
torch.baddbmm(torch.zeros(2, 3, 1), a, b).shape
torch.addmv(torch.zeros(2), torch.ones(2, 3), torch.ones(3))
torch.addr(torch.zeros(2, 2), torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
torch.vdot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
torch.chain_matmul(torch.eye(2), torch.ones(2, 2)) if False else torch.linalg.multi_dot([torch.eye(2), torch.ones(2, 2)])
torch.cdist(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0], [1.0, 0.0]]))
torch.dist(torch.tensor([1.0, 2.0]), torch.tensor([4.0, 6.0]))
torch.dist(torch.tensor([1.0, 2.0]), torch.tensor([4.0, 6.0]), p=1)
torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]))
