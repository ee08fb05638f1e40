# `import torch.functional as F`: the module PyTorch defines einsum, split, norm... in
import torch
import torch.functional as F
blocks = F.split(torch.arange(7), 3)
blocks
F.einsum("ij->i", torch.ones(2, 5))
F.norm(torch.tensor([3.0, 4.0]))
F.meshgrid(torch.tensor([1, 2]), torch.tensor([5, 6, 7]), indexing="ij")
torch.functional.atleast_2d(torch.tensor(1.5))
F.relu
