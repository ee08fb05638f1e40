# tensor.storage(): the flat memory a view shares with its base
import torch
a = torch.arange(6.).view(2, 3)
s = a.storage()
s
len(s), s.size(), s.dtype, s.device, s.element_size(), s.nbytes()
s[4], s[-1], s.tolist(), s.type()
type(s)
b = a[1]
b.storage().size(), b.storage_offset()
a.storage().data_ptr() == b.storage().data_ptr()
a.storage().data_ptr() == a.clone().storage().data_ptr()
c = torch.ones(3).expand(4, 3)
print("expand:", c.storage().size(), "repeat:", torch.ones(3).repeat(4, 1).storage().size())
torch.tensor([1, 2]).storage()
torch.tensor([True, False]).storage()
torch.tensor([], dtype=torch.float64).storage()
d = torch.Tensor(a.storage())
d[0] = 100
a
d
torch.FloatTensor(b.storage()).shape
torch.LongTensor(a.storage())
