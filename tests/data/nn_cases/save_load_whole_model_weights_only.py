import torch
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
torch.save(model, "model.pth")
model = torch.load("model.pth")
