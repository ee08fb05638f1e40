with torch.inference_mode():
    a = torch.ones(3)
    b = a * 2
a.is_inference()
b.requires_grad
torch.ones(1).is_inference()
torch.is_inference_mode_enabled()
with torch.inference_mode():
    torch.is_inference_mode_enabled()
    print(torch.is_inference_mode_enabled())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled())
@torch.inference_mode()
def predict(t):
    return t * 3
predict(torch.ones(2, requires_grad=True)).requires_grad
