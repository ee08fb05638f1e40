# what runs in bfloat16 inside CPU autocast, what in float32, and what a GradScaler does with an inf
import torch
torch.manual_seed(0)
lin = torch.nn.Linear(4, 3)
x = torch.randn(2, 4)
print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"), torch.amp.is_autocast_available("cpu"))
with torch.autocast("cpu") as ac:
    print(torch.is_autocast_enabled("cpu"), ac.fast_dtype, ac.device)
    y = lin(x)
    print(y)
    print(y.grad_fn.next_functions)
    print((x @ x.t()).dtype, torch.mm(x, x.t()).dtype, x.double().mm(x.double().t()).dtype)
    print(torch.bmm(x[None], x.t()[None]).dtype, torch.matmul(x, x[0]).dtype, x.long().matmul(x.long()[0]).dtype)
    print((x + 1).dtype, torch.exp(y).dtype, (y + x[:, :3]).dtype, y.relu().dtype, torch.softmax(y, 1).dtype)
    print(torch.cat([y, x[:, :3]]).dtype, torch.stack([y, y]).dtype, torch.cat([y, x.double()[:, :3]]).dtype)
    loss = torch.nn.functional.mse_loss(y, torch.zeros(2, 3))
    print(loss, loss.grad_fn.next_functions)
    ce = torch.nn.functional.cross_entropy(y, torch.tensor([0, 2]))
    print(ce, ce.grad_fn.next_functions)
    print(y.prod(), y.sum().dtype)
    att = torch.nn.functional.scaled_dot_product_attention(y[None], y[None], y[None])
    print(att, att.grad_fn)
    y2 = lin(x)
    print(y2.grad_fn.next_functions[2][0].next_functions[0][0] is y.grad_fn.next_functions[2][0].next_functions[0][0])
    with torch.autocast("cpu", enabled=False):
        print(lin(x).dtype, torch.is_autocast_enabled("cpu"))
    print(lin(x).dtype)
(loss + ce).backward()
print(lin.weight.grad, lin.bias.grad)
print(torch.is_autocast_enabled("cpu"))

@torch.autocast(device_type="cpu")
def forward(a):
    return lin(a)
print(forward(x).dtype, lin(x).dtype)
with torch.autocast("cuda"):
    print(lin(x).dtype, torch.is_autocast_enabled("cuda"))
with torch.cpu.amp.autocast():
    print(lin(x).dtype)
with torch.autocast("cpu", dtype=torch.float64):
    print(lin(x).dtype)

w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
scaler = torch.GradScaler("cpu", init_scale=8.0)
for value in [1.0, float("inf"), 2.0]:
    scaler.scale((w * value).sum()).backward()
    print(w.grad, scaler.step(opt), w)
    scaler.update()
    print(scaler.get_scale(), scaler.state_dict()["_growth_tracker"])
    opt.zero_grad()
scaler.update(4.0)
print(scaler.get_scale())
h, b = torch.ones(2).half(), torch.ones(2).bfloat16()
with torch.autocast("cpu"):
    torch.cat([h, b])
