import torch
torch.view_as_complex(torch.ones(2, 3))
