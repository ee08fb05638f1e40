import torch
import torch.nn.functional as F
scores = torch.tensor([[0.2, -1.1, 0.7, 1.9], [1.4, 0.3, -0.6, 0.05], [-0.8, 2.2, 0.9, 0.4]])
F.nll_loss(scores.log_softmax(1), torch.tensor([[2], [0], [1]]))
