import torch
torch.complex(torch.ones(2), torch.ones(2, dtype=torch.float64))
