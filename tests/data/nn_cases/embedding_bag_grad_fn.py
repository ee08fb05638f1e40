import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
bag = nn.EmbeddingBag(10, 4, mode="mean")
idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 1, 1])
off = torch.tensor([0, 4, 7])
out = bag(idx, off)
print(out)
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name(), out.grad_fn.next_functions[1])
out.pow(2).sum().backward()
print(bag.weight.grad)
for mode in ("sum", "max"):
    b = nn.EmbeddingBag(6, 3, mode=mode, padding_idx=0)
    o = b(torch.tensor([[0, 1, 2], [2, 2, 5], [0, 0, 0]]))
    print(o)
    o.backward(torch.arange(9.).view(3, 3))
    print(b.weight.grad)
w = torch.randn(5, 3, requires_grad=True)
ps = torch.randn(6, requires_grad=True)
o = F.embedding_bag(torch.tensor([0, 1, 1, 4, 3, 0]), w, torch.tensor([0, 2, 2, 5]), mode="sum", per_sample_weights=ps,
                    include_last_offset=True)
print(o)
o.sum().backward()
print(w.grad)
print(ps.grad)
for bad in (lambda: F.embedding_bag(torch.tensor([0, 9]), w, torch.tensor([0])),
            lambda: F.embedding_bag(torch.tensor([0, 1]), w, torch.tensor([1])),
            lambda: F.embedding_bag(torch.tensor([0, 1]), w, torch.tensor([0, 3])),
            lambda: F.embedding_bag(torch.tensor([0, 1]), w),
            lambda: F.embedding_bag(torch.tensor([[0, 1]]), w, torch.tensor([0])),
            lambda: F.embedding_bag(torch.tensor([0, 1]), w, torch.tensor([0]), mode="median"),
            lambda: F.embedding_bag(torch.tensor([0, 1]), w, torch.tensor([0]), per_sample_weights=torch.ones(2))):
    try:
        bad()
    except Exception as e:
        print(repr(e))
F.embedding_bag(torch.tensor([0., 1.]), w, torch.tensor([0]))
