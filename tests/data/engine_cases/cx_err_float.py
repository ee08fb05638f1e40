import torch
print(float(torch.tensor(1+0j)))
float(torch.tensor(1+2j))
