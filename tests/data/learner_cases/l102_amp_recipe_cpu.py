# the AMP recipe (recipes_source/recipes/amp_recipe.py) the way a learner without a GPU runs it:
# device falls back to "cpu", autocast to bfloat16, and the CUDA GradScaler disables itself
import torch
torch.manual_seed(0)

def make_model(in_size, out_size, num_layers):
    layers = []
    for _ in range(num_layers - 1):
        layers.append(torch.nn.Linear(in_size, in_size))
        layers.append(torch.nn.ReLU())
    layers.append(torch.nn.Linear(in_size, out_size))
    return torch.nn.Sequential(*tuple(layers))

batch_size, in_size, out_size, num_layers, num_batches, epochs = 8, 16, 16, 3, 3, 2
device = 'cuda' if torch.cuda.is_available() else 'cpu'
torch.set_default_device(device)
data = [torch.randn(batch_size, in_size) for _ in range(num_batches)]
targets = [torch.randn(batch_size, out_size) for _ in range(num_batches)]
loss_fn = torch.nn.MSELoss().cuda()

net = make_model(in_size, out_size, num_layers)
opt = torch.optim.SGD(net.parameters(), lr=0.001)
for epoch in range(epochs):
    for input, target in zip(data, targets):
        output = net(input)
        loss = loss_fn(output, target)
        loss.backward()
        opt.step()
        opt.zero_grad()
print("Default precision:", loss)

for input, target in zip(data, targets):
    with torch.autocast(device_type=device, dtype=torch.bfloat16):
        output = net(input)
        assert output.dtype is torch.bfloat16
        loss = loss_fn(output, target)
        assert loss.dtype is torch.float32
    loss.backward()
    opt.step()
    opt.zero_grad()
print("autocast:", loss, output.dtype, output.grad_fn)
print(net[0].weight.grad, net[0].weight.dtype)

scaler = torch.cuda.amp.GradScaler()
print(scaler.is_enabled(), scaler.get_scale(), scaler.state_dict())
for input, target in zip(data, targets):
    with torch.autocast(device_type=device, dtype=torch.bfloat16):
        output = net(input)
        loss = loss_fn(output, target)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.zero_grad()
print("disabled scaler:", loss)

net = make_model(in_size, out_size, num_layers)
opt = torch.optim.SGD(net.parameters(), lr=0.001)
scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
for epoch in range(epochs):
    for input, target in zip(data, targets):
        with torch.autocast(device_type=device, dtype=torch.float16, enabled=True):
            output = net(input)
            loss = loss_fn(output, target)
        scaled = scaler.scale(loss)
        print(scaled.dtype, scaled.grad_fn)
        scaled.backward()
        print(net[2].bias.grad[:3])
        scaler.unscale_(opt)
        print(net[2].bias.grad[:3])
        print(torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.1))
        print(scaler.step(opt))
        scaler.update()
        print(scaler.get_scale())
        opt.zero_grad()
print("Mixed precision:", loss, output.dtype)

checkpoint = {"model": net.state_dict(), "optimizer": opt.state_dict(), "scaler": scaler.state_dict()}
print(checkpoint["scaler"])
fresh = torch.amp.GradScaler("cpu")
fresh.load_state_dict(checkpoint["scaler"])
print(fresh.get_scale(), fresh.get_growth_interval(), fresh.state_dict())
print(type(fresh), isinstance(fresh, torch.amp.GradScaler), type(torch.cuda.amp.GradScaler(enabled=False)))
# a scaler saved while disabled has nothing to give
fresh.load_state_dict(torch.cuda.amp.GradScaler().state_dict())
