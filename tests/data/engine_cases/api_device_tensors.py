torch.manual_seed(3)
dev = torch.device("cpu")
a = torch.zeros(2, 3, device=dev)
a.device
b = torch.ones(3, device="cpu", dtype=torch.float64)
b
c = torch.randn(2, device=dev)
c
c.to(dev) is c
c.to("cpu")
c.to(dev, torch.float64)
c.to(device="cpu", dtype=torch.int32)
c.cpu() is c
c.is_cuda
torch.tensor([1.5, 2.5], device="cpu").device
torch.arange(4, device=dev)
torch.linspace(0, 1, 3, device="cpu")
torch.full((2,), 7.0, device=dev)
torch.eye(2, device="cpu")
torch.zeros_like(c, device=dev)
