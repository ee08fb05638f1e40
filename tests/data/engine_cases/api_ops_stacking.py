a = torch.tensor([1, 2])
b = torch.tensor([3, 4])
torch.hstack([a, b])
torch.vstack((a, b))
torch.dstack([a, b])
torch.column_stack([a, b])
torch.row_stack([a, b])
m = torch.arange(6).reshape(2, 3)
torch.hstack([m, m]).shape
torch.vstack([m, m]).shape
torch.cat((m, m), dim=-1)
torch.concatenate([a, b])
