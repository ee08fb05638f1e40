x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt() * 0
    z = (y / y.detach().clone().fill_(0)).sum()
    z.backward()
