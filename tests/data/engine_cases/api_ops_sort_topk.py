x = torch.tensor([[3.0, 1.0, 2.0, 5.0], [0.5, 4.0, 4.0, -1.0]])
torch.sort(x)
x.sort(dim=0, descending=True)
torch.sort(x, stable=True, descending=True)
x.argsort()
torch.argsort(x, dim=1, descending=True)
torch.topk(x, 2)
x.topk(1, dim=0, largest=False)
x.topk(3, sorted=True).values
v, i = x.sort()
i
torch.msort(x)
torch.sort(torch.tensor([2, 1, 3]))
