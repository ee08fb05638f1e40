import torch
torch.save({"model": torch.nn.Linear(2, 2), "epoch": 1}, "model.pth")
torch.load("model.pth", weights_only=True)
