import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
mistakes = [
    lambda: nn.BatchNorm1d(3)(torch.ones(4, 5)),
    lambda: nn.BatchNorm2d(3).eval()(torch.ones(2, 5, 2, 2)),
    lambda: nn.NLLLoss()(torch.randn(3, 4), torch.tensor([0, 1, -1])),
    lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 7, -3])),
    lambda: nn.BCELoss()(torch.rand(3), torch.tensor([1, 0, 1])),
    lambda: F.binary_cross_entropy(torch.rand(3, dtype=torch.float64), torch.rand(3)),
    lambda: torch.zeros(3).index_select(0, torch.tensor([1.0])),
    lambda: torch.where(torch.tensor([1, 0]), 1.0, 0.0),
    lambda: torch.where(torch.tensor([1.0, 0.0]), torch.ones(2), torch.zeros(2)),
    lambda: torch.where(torch.tensor([1, 0])),
    lambda: torch.ones(5).chunk(0),
    lambda: torch.arange(4).chunk(-2),
]
for i, m in enumerate(mistakes):
    try:
        print(i, m())
    except Exception as e:
        print(i, e)
nn.BCELoss()(torch.rand(2), torch.tensor([1, 0]))
