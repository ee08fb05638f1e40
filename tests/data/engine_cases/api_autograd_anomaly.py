with torch.autograd.detect_anomaly():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    y.backward()
x.grad
torch.is_anomaly_enabled()
torch.autograd.set_detect_anomaly(True)
torch.is_anomaly_enabled()
torch.autograd.set_detect_anomaly(False)
torch.is_anomaly_enabled()
