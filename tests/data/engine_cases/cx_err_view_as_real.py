import torch
torch.view_as_real(torch.tensor([1., 2.]))
