with torch.inference_mode():
    a = torch.ones(3)
a.add_(1)
