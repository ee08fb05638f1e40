# Tensor.to with a keyword it does not take (an old tutorial's .to(requires_grad=True))
import torch
w = torch.ones(2, 2)
w.to(torch.float64).dtype
w.to("cpu", dtype=torch.int32)
w.to(requires_grad=True)
