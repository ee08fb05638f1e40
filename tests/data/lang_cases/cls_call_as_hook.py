import torch
class Doubler:
  def __call__(self, g):
    print('hook sees', g)
    return g * 2
x = torch.ones(2, requires_grad=True)
h = x.register_hook(Doubler())
(x * 3).sum().backward()
x.grad
m = torch.nn.Linear(2, 1)
class Show:
  def __call__(self, mod, inp, out):
    print('forward hook', out.shape)
m.register_forward_hook(Show())
_ = m(torch.ones(1, 2))
sorted([3, 1, 2], key=Doubler())
