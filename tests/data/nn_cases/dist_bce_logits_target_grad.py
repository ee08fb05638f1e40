# binary_cross_entropy_with_logits: the gradient to a target that requires grad (Bernoulli.entropy), float32 as PyTorch
import torch
import torch.nn.functional as F
torch.set_printoptions(precision=10)
x = torch.tensor([-0.4054651, 0.4054651, 2.944439, -3.1], requires_grad=True)
t = torch.tensor([0.2, 0.6, 0.95, 0.3], requires_grad=True)
w = torch.tensor([0.5, 1.5, 2.0, 0.3])
pw = torch.tensor([1.3, 0.7, 2.0, 3.0])
for red in ["mean", "sum", "none"]:
    y = F.binary_cross_entropy_with_logits(x, t, weight=w, pos_weight=pw, reduction=red)
    print(torch.autograd.grad(y.sum(), [x, t]))
    y = F.binary_cross_entropy_with_logits(x, t, weight=w, reduction=red)
    print(torch.autograd.grad(y.sum(), [x, t]))
    y = F.binary_cross_entropy_with_logits(x, t, pos_weight=pw, reduction=red)
    print(torch.autograd.grad(y.sum(), [x, t]))
