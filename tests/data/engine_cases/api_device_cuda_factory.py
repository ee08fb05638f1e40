torch.zeros(2, device="cuda")
