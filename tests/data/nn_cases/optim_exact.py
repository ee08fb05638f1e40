# Optimizer updates over 100 steps on elementwise losses (no matrix products). SGD's numbers
# equal PyTorch's to the last bit (printed with tolist()); the others take a square root,
# which PyTorch's CPU build computes with MKL's vector sqrt (not correctly rounded): they are
# compared to printed precision.
import torch

torch.manual_seed(0)
target = torch.randn(37)
scale = torch.rand(37) + 0.5


def run(make, steps=100, exact=False):
    torch.manual_seed(1)
    w = torch.randn(37, requires_grad=True)
    b = torch.zeros(5, requires_grad=True)
    opt = make([w, b])
    for step in range(steps):
        opt.zero_grad()
        loss = ((w - target) ** 2 * scale).sum() + (b - 1.5).abs().sum() + (w * w * w).mean()
        loss.backward()
        opt.step()
    if exact:
        print(type(opt), loss.item())
        print(w.tolist())
        print(b.tolist())
    else:
        print(type(opt), loss)
        print(w)
        print(b)


run(lambda p: torch.optim.SGD(p, lr=0.01), exact=True)
run(lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), exact=True)
run(lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True, weight_decay=1e-3), exact=True)
run(lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.5, dampening=0.1, maximize=True), exact=True)
run(lambda p: torch.optim.Adam(p, lr=0.01))
run(lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=0.01, amsgrad=True))
run(lambda p: torch.optim.Adam(p, lr=0.02, betas=(0.8, 0.99), eps=1e-6, maximize=True))
run(lambda p: torch.optim.AdamW(p, lr=0.01))
run(lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.1, amsgrad=True))
run(lambda p: torch.optim.RMSprop(p, lr=0.001))
run(lambda p: torch.optim.RMSprop(p, lr=0.001, momentum=0.9, centered=True, weight_decay=0.01))
run(lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.9, momentum=0.5))
run(lambda p: torch.optim.Adagrad(p, lr=0.1))
run(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.001, initial_accumulator_value=0.1))
