import torch
# old blog posts: torch.Tensor / torch.FloatTensor with keywords only torch.tensor takes
a = torch.Tensor([1, 2, 3])
b = torch.FloatTensor([[1, 2]], device='cpu')
print(a, b, torch.LongTensor(2, device=torch.device('cpu')).shape)
for call in (lambda: torch.Tensor(requires_grad=True),
             lambda: torch.Tensor(2, 3, requires_grad=True),
             lambda: torch.Tensor(a, requires_grad=False),
             lambda: torch.FloatTensor(2, dtype=torch.float32),
             lambda: torch.LongTensor([1.0], device='cpu', requires_grad=True)):
    try:
        call()
    except TypeError as e:
        print(str(e).splitlines()[0])
try:
    torch.FloatTensor([1.0], device='cuda')
except RuntimeError as e:
    print(e)
w = torch.Tensor([0.5, -0.5]).requires_grad_()
print(w)
w = torch.Tensor([0.5, -0.5], requires_grad=True)
