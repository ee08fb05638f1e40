import torch
# a learner's gradient penalty: the gradient's graph is PyTorch's backward kernels
w = torch.tensor([[0.7, -1.2], [0.35, 0.9]], requires_grad=True)
pts = torch.tensor([[1.5, -0.25], [-0.75, 2.0], [0.1, 0.4]], requires_grad=True)
h = torch.tanh(pts @ w)
score = torch.sigmoid(h).sum()
g, = torch.autograd.grad(score, pts, create_graph=True)
g.grad_fn.name()
[None if f is None else f.name() for f, _ in g.grad_fn.next_functions]
penalty = (g.norm(dim=1) - 1).pow(2).mean()
penalty.backward()
w.grad
pts.grad

def names(t):
    return (t.grad_fn.name(), [None if f is None else f.name() for f, _ in t.grad_fn.next_functions])

a = torch.tensor([0.8, -0.3, 1.6, -2.2], requires_grad=True)
for f in (torch.relu, torch.nn.functional.gelu, torch.nn.functional.softplus, torch.nn.functional.elu,
          torch.nn.functional.hardtanh, torch.nn.functional.leaky_relu, torch.nn.functional.logsigmoid,
          torch.nn.functional.hardswish):
    ga, = torch.autograd.grad(f(a).sum(), a, create_graph=True)
    print(names(ga), ga.requires_grad)
    print(torch.autograd.grad(ga.sum(), a)[0])

logits = torch.tensor([[1.25, -0.5, 0.75], [0.2, 1.1, -1.3]], requires_grad=True)
labels = torch.tensor([2, 0])
gl, = torch.autograd.grad(torch.nn.functional.cross_entropy(logits, labels), logits, create_graph=True)
names(gl)
gs, = torch.autograd.grad((torch.softmax(logits, 1) * torch.tensor([1.0, 2.0, 3.0])).sum(), logits, create_graph=True)
names(gs)
torch.autograd.grad(gs.pow(2).sum(), logits)[0]
target = torch.tensor([[0.5, 0.25, -1.0], [1.5, 0.0, 0.5]])
for loss in (torch.nn.functional.mse_loss, torch.nn.functional.smooth_l1_loss, torch.nn.functional.huber_loss):
    gm, = torch.autograd.grad(loss(logits, target), logits, create_graph=True)
    print(names(gm))
    print(torch.autograd.grad(gm.pow(2).sum(), logits)[0])
