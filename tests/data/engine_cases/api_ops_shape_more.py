x = torch.arange(24).reshape(2, 3, 4)
torch.movedim(x, 0, -1).shape
x.moveaxis(1, 0).shape
torch.roll(torch.arange(5), 2)
torch.roll(x, shifts=1, dims=2)[0]
torch.roll(torch.arange(6).reshape(2, 3), (1, 1), (0, 1))
torch.tile(torch.tensor([1, 2]), (2, 2))
torch.tensor([[1, 2]]).tile(3)
x.unflatten(2, (2, 2)).shape
torch.unflatten(torch.arange(6), 0, (2, 3))
torch.flatten(x, 1).shape
x.flatten(0, 1).shape
torch.rot90(torch.arange(4).reshape(2, 2))
torch.fliplr(torch.arange(4).reshape(2, 2))
torch.flipud(torch.arange(4).reshape(2, 2))
torch.repeat_interleave(torch.tensor([1, 2]), 2)
torch.tensor([1, 2, 3]).repeat_interleave(torch.tensor([1, 0, 2]))
x.swapdims(0, 2).shape
torch.atleast_2d(torch.tensor(1.0))
torch.squeeze(torch.zeros(1, 2, 1), (0, 2)).shape
torch.chunk(torch.arange(5), 2)
torch.tensor_split(torch.arange(7), 3)
torch.split(torch.arange(5), [2, 3])
torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij")
torch.broadcast_to(torch.tensor([1, 2]), (2, 2))
torch.narrow(torch.arange(6), 0, 1, 3)
x.unfold(2, 2, 2).shape
