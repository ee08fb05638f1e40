import torch
sd = torch.nn.Linear(1,1).state_dict()
print(type(sd), type(None), type(range(2)), type(x for x in []))
