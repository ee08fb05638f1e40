import torch
import torch.nn.functional as F
scores = torch.tensor([[0.2, -1.1, 0.7, 1.9], [1.4, 0.3, -0.6, 0.05], [-0.8, 2.2, 0.9, 0.4]])
F.cross_entropy(scores, torch.tensor([3., 0., 1.]))
