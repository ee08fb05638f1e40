w = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
def after(p):
    seen.append(p.grad.clone())
    with torch.no_grad():
        p.sub_(0.1 * p.grad)
h = w.register_post_accumulate_grad_hook(after)
(w * w).sum().backward()
seen
w
(w * 3).sum().backward()
seen
w.grad
h.remove()
(w * 1).sum().backward()
len(seen)
