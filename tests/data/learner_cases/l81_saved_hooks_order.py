import torch

w = torch.tensor([2., -1.], requires_grad=True)
v = torch.tensor([0.5, 3.], requires_grad=True)
A = torch.tensor([[1., 2.], [0., 1.]], requires_grad=True)
B = torch.tensor([[3., 0.], [1., 1.]], requires_grad=True)
names = {id(w): "w", id(v): "v", id(A): "A", id(B): "B"}

def show(t):
    return names.get(id(t), "a tensor of shape " + str(list(t.shape)))

def pack(t):
    print("  pack", show(t))
    return t

def unpack(t):
    print("  unpack", show(t))
    return t

# PyTorch's nodes save their inputs in the order of the argument names, then their outputs
steps = [("w * v", lambda: w * v), ("w / v", lambda: w / v), ("A @ B", lambda: A @ B),
         ("w ** v", lambda: w ** v), ("maximum", lambda: torch.maximum(w, v)),
         ("atan2", lambda: torch.atan2(w, v)), ("lerp", lambda: torch.lerp(w, v, 0.25)),
         ("addcmul", lambda: torch.addcmul(w, v, w)), ("mv", lambda: A.mv(v))]
for label, f in steps:
    print(label)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = f()
    y.sum().backward()

# a retained graph unpacks again, in the same order, on each backward
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (v * w).exp()
y.sum().backward(retain_graph=True)
y.sum().backward()
w.grad, v.grad
