torch.FloatTensor([1, 2])
torch.LongTensor([1, 2])
torch.DoubleTensor([[1, 2]])
torch.IntTensor([3])
torch.BoolTensor([True, False])
torch.ByteTensor([1, 2])
torch.HalfTensor([1.5])
torch.FloatTensor(2, 3).shape
torch.LongTensor(3).dtype
x = torch.tensor([1.5, 2.5])
x.type(torch.LongTensor)
x.type()
x.long().type()
x.type("torch.DoubleTensor")
isinstance(x, torch.FloatTensor)
isinstance(x, torch.Tensor)
torch.FloatTensor
