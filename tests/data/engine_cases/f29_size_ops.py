import torch
x = torch.zeros(2, 3, 4)
x.shape
x.size(-1)
x.view(6, 4).shape
x.permute(2, 0, 1).shape
x.unsqueeze(1).shape
x[0].shape
x[:, 1, :].shape
x.sum(dim=(0, 2)).shape
x.flatten(1).shape
x.transpose(0, 2).shape
x.numel()
torch.Size([2, 3])
x.shape == (2, 3, 4)
