x = torch.arange(12.).reshape(3, 4)
x.sum(axis=0)
x.sum(axis=1, keepdims=True)
torch.sum(x, axis=0, keepdims=True)
x.mean(axis=1)
x.max(axis=0)
x.argmax(axis=1)
x.amax(axis=0, keepdims=True)
x.std(axis=0)
x.var(axis=1, keepdims=True)
x.prod(axis=1)
x.cumsum(axis=0)
x.softmax(axis=1)
torch.cat([x, x], axis=0).shape
torch.stack([x, x], axis=1).shape
x.flip(0)
x.squeeze(axis=0).shape
x.unsqueeze(axis=0).shape
x.any(axis=1)
x.logsumexp(axis=1)
x.norm(dim=1)
