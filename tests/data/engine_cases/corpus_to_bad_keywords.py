# Tensor.to with a device and a keyword it does not take
import torch
w = torch.zeros(3)
w.to("cpu", grad=False)
