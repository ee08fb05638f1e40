a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([4.0, 5.0, 6.0])
c = torch.empty(3)
r = torch.add(a, b, out=c)
r is c
c
torch.mul(a, b, out=c)
c
m = torch.zeros(2, 2)
torch.matmul(torch.eye(2), torch.ones(2, 2), out=m)
torch.exp(a, out=c)
c
torch.sum(a, 0, out=torch.empty(()))
torch.arange(3, out=torch.empty(3))
torch.rand(2, out=torch.empty(2)).shape
torch.sub(b, a, alpha=2, out=c)
torch.cat([a, b], out=torch.empty(6))
