import torch
def run(make_opt):
    w = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
    opt = make_opt([w])
    for _ in range(5):
        opt.zero_grad()
        loss = (w ** 2).sum() + w[0] * w[1]
        loss.backward()
        opt.step()
    return w.detach().tolist()
print(run(lambda p: torch.optim.SGD(p, lr=0.1)))
print(run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)))
print(run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True)))
print(run(lambda p: torch.optim.SGD(p, lr=0.1, weight_decay=0.1)))
print(run(lambda p: torch.optim.RMSprop(p, lr=0.01)))
run(lambda p: torch.optim.SGD(p, lr=0.1, nesterov=True))
