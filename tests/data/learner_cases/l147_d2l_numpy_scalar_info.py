# NumPy scalars taken from arrays (d2l's word2vec: `for i in topk[1:]` over `.numpy().astype('int32')`)
# answer dtype, shape, ndim, size and tolist() as NumPy's scalars do.
import numpy as np
import torch

torch.manual_seed(0)
W = torch.randn(6, 3)
x = W[2]
cos = torch.mv(W, x) / torch.sqrt(torch.sum(W * W, dim=1) * torch.sum(x * x) + 1e-9)
topk = torch.topk(cos, k=4)[1].numpy().astype('int32')
words = ['chip', 'intel', 'computer', 'market', 'stock', 'bank']
for i in topk[1:]:
    print(i, i.dtype, i.shape, i.ndim, i.size, i.tolist(), words[i.tolist()])
    print(f'cosine sim={float(cos[i]):.3f}: {words[i]}')
v = W.numpy()[1, 2]
print(v.dtype, v.shape, v.ndim, v.size, v.tolist() == W[1, 2].item(), type(v.tolist()))
s = W.numpy().sum()
print(s.dtype, s.shape, type(s.tolist()))
b = (W.numpy() > 0).any()
print(b, b.dtype, b.shape, b.ndim, b.tolist())
def tokens(indices):
    if hasattr(indices, 'shape') and len(indices.shape) > 0:
        return [words[int(j)] for j in indices]
    return words[int(indices)]
print(tokens(topk), tokens(topk[0]))
