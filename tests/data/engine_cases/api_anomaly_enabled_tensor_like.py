import torch
print(torch.is_anomaly_check_nan_enabled())
print(torch.set_anomaly_enabled(True, check_nan=False))
print(torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.autograd.is_tensor_like(1), torch.autograd.is_tensor_like(torch.ones(2)), torch.autograd.is_tensor_like(torch.nn.Parameter(torch.ones(1))))
