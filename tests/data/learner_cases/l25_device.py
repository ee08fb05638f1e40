import torch
device = "cuda" if torch.cuda.is_available() else "cpu"
print("using", device)
x = torch.randn(2, 2).to(device)
print(x.device)
dev = torch.device(device)
print(dev, dev.type)
model = torch.nn.Linear(2, 2).to(dev)
print(next(model.parameters()).device)
y = torch.zeros(3, device=dev)
print(y)
print(x.cpu().is_cuda if hasattr(x, 'is_cuda') else None)
z = torch.ones(2, device='cuda')
