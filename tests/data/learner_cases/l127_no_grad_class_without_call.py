import torch
x = torch.ones(2, requires_grad=True)

@torch.no_grad
def predict(t):
    return t * 2

print(predict(x))

@torch.enable_grad
def tracked(t):
    return t * 2

with torch.no_grad():
    print(tracked(x))

@torch.inference_mode
def infer(t):
    return t * 3

print(infer(x))
torch.no_grad
torch.enable_grad
torch.inference_mode
torch.set_grad_enabled
print(type(torch.no_grad()), isinstance(torch.no_grad(), torch.no_grad))
with torch.no_grad():
    print((x * 2).requires_grad)
# forgetting the parentheses in `with`
with torch.no_grad:
    y = x * 2
