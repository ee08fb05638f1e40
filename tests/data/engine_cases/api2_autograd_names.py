import torch
x = torch.ones(2, requires_grad=True)
with torch.autograd.graph.disable_saved_tensors_hooks("saved tensor hooks are off here"):
    y = (x * x).sum()
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            z = x * x
    except RuntimeError as e:
        print("refused:", e)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    try:
        with torch.autograd.graph.disable_saved_tensors_hooks("hooks already active"):
            print("entered")
    except RuntimeError as e:
        print("refused:", e)
with torch.autograd.graph.disable_saved_tensors_hooks("outer"):
    with torch.autograd.graph.disable_saved_tensors_hooks("inner"):
        pass
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as e:
        print("refused:", e)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    w = x * 3
w.sum().backward()
x.grad
torch.autograd.is_multithreading_enabled(), torch.autograd.is_view_replay_enabled()
m = torch.autograd.set_multithreading_enabled(False)
torch.autograd.is_multithreading_enabled()
with torch.autograd.set_multithreading_enabled(True):
    print(torch.autograd.is_multithreading_enabled())
torch.autograd.is_multithreading_enabled()
type(m)
with m.clone():
    print(torch.autograd.is_multithreading_enabled())
torch.autograd.set_multithreading_enabled(True) is not None
torch.autograd.is_multithreading_enabled()
torch.autograd.inference_mode is torch.inference_mode
with torch.autograd.inference_mode():
    v = x * 2
v.requires_grad, v.is_inference()
torch.autograd.Variable is torch.autograd.variable
torch.autograd.variable(torch.ones(2), requires_grad=True)
