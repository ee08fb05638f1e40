import torch

torch.manual_seed(0)
target = torch.randn(9)
scale = torch.rand(9) + 0.5
w = torch.zeros(9, requires_grad=True)
b = torch.ones(3, requires_grad=True)
opt = torch.optim.LBFGS([w, b], lr=0.5, history_size=5, max_iter=8)
opt


def closure():
    opt.zero_grad()
    loss = ((w - target) ** 2 * scale).sum() + ((b - 0.5) ** 2 * 3).sum() + (w * w).mean()
    loss.backward()
    return loss


for i in range(4):
    loss = opt.step(closure)
    print(i, round(loss.item(), 5))
w
b
st = opt.state_dict()['state'][0]
sorted(st.keys())
st['func_evals'], st['n_iter'], len(st['old_dirs'])
w2 = torch.zeros(9, requires_grad=True)
b2 = torch.ones(3, requires_grad=True)
opt2 = torch.optim.LBFGS([w2, b2], line_search_fn="strong_wolfe")


def closure2():
    opt2.zero_grad()
    loss = ((w2 - target) ** 2 * scale).sum() + ((b2 - 0.5) ** 2 * 3).sum() + (w2 * w2).mean()
    loss.backward()
    return loss


for i in range(3):
    print(i, round(opt2.step(closure2).item(), 5))
w2
b2
opt2.state_dict()['state'][0]['func_evals']
torch.optim.LBFGS([w], line_search_fn="backtracking").step(closure)
