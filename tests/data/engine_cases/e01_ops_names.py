import torch
x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], requires_grad=True)
v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
for y in [x + 1, 1 + x, x - 1, 1 - x, x * 2, x / 2, 2 / x, x ** 2, x ** x, 2 ** x, -x, x.abs(), x.exp(), x.sin(), x.cos(), x.tanh(), x.sigmoid(), x.relu(), x.clamp(0, 1), x.sum(), x.sum(0), x.mean(), x.mean(1), x.max(), x.min(), x.prod(), x.norm(), x @ v, v @ v, x.t(), x.T, x.reshape(6), x.view(3, 2), x.flatten(), x.unsqueeze(0), x[0], x[0, 1], x[:, 1:], x[None], x.softmax(1), x.log_softmax(1), torch.cat([x, x]), torch.stack([x, x]), x.clone(), x.double(), x.transpose(0, 1), x.permute(1, 0), v.expand(2, 3), x.square()]:
    print(y.grad_fn.name(), y.shape)
