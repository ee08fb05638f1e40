# More optimizers over 100 steps on an elementwise loss (no matrix products): the ones
# without a square root (ASGD, Rprop) print tolist() digits, the others print precision.
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
    return opt


run(lambda p: torch.optim.Adadelta(p))
run(lambda p: torch.optim.Adadelta(p, lr=0.5, rho=0.8, weight_decay=0.01, maximize=True))
run(lambda p: torch.optim.Adamax(p))
run(lambda p: torch.optim.Adamax(p, lr=0.01, betas=(0.8, 0.99), weight_decay=0.01), exact=True)
run(lambda p: torch.optim.NAdam(p, lr=0.01))
run(lambda p: torch.optim.NAdam(p, lr=0.01, weight_decay=0.01, decoupled_weight_decay=True, momentum_decay=0.01))
run(lambda p: torch.optim.RAdam(p, lr=0.01))
run(lambda p: torch.optim.RAdam(p, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True))
run(lambda p: torch.optim.RAdam(p, lr=0.01, weight_decay=0.1), steps=4)
run(lambda p: torch.optim.ASGD(p), exact=True)
run(lambda p: torch.optim.ASGD(p, lr=0.02, lambd=1e-3, t0=10, weight_decay=0.01), exact=True)
run(lambda p: torch.optim.Rprop(p), exact=True)
opt = run(lambda p: torch.optim.Rprop(p, lr=0.001, etas=(0.3, 1.5), step_sizes=(1e-4, 0.05), maximize=True), exact=True)
opt
opt.state_dict()['state'][1]
opt = run(lambda p: torch.optim.ASGD(p, t0=50), steps=60)
opt
opt.state_dict()['state'][1]
opt = run(lambda p: torch.optim.NAdam(p), steps=3)
opt.state_dict()['state'][1]
torch.optim.Adadelta([torch.zeros(1, requires_grad=True)])
torch.optim.Adamax([torch.zeros(1, requires_grad=True)])
torch.optim.RAdam([torch.zeros(1, requires_grad=True)])
torch.optim.Rprop([torch.zeros(1, requires_grad=True)], etas=(1.5, 1.2))
