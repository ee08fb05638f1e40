import torch
torch.manual_seed(4)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(8, 2)
target = torch.randn(8, 1)
accum = 4
opt.zero_grad()
for i in range(8):
    loss = torch.nn.functional.mse_loss(model(data[i:i+1]), target[i:i+1]) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        print(i, model.weight.grad)
        opt.step()
        opt.zero_grad()
print(model.weight.grad)
print(model.bias)
