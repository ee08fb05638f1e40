log = []
def pack(t):
    log.append(("pack", tuple(t.shape)))
    return t.detach().clone()
def unpack(t):
    log.append(("unpack", tuple(t.shape)))
    return t
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    h = w * w
    e = h.exp()
    loss = (e * 3).sum() + torch.sigmoid(w).mean()
len(log)
loss.backward()
log
w.grad
n = [0, 0]
def p2(t):
    n[0] += 1
    return t
def u2(t):
    n[1] += 1
    return t
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(p2, u2):
    q = torch.tanh(a) @ torch.tensor([1.0, 2.0]) + a.pow(2).sum()
n
q.backward()
n
a.grad
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    r = (a.sin() * a).sum()
a.grad = None
r.backward()
a.grad
with torch.autograd.graph.saved_tensors_hooks(p2, lambda t: t * 0):
    z = (a * a).sum()
a.grad = None
z.backward()
a.grad
