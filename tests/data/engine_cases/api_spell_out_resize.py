a = torch.tensor([1.0, 2.0])
out = torch.empty(5)
torch.add(a, a, out=out)
out.shape
