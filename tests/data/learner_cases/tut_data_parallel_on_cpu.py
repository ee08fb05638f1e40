# Wrapping a model in nn.DataParallel as tutorials do before training: with no GPU it
# keeps the model, runs it unchanged, and prefixes its state_dict keys with "module.".
import torch.nn as nn

class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.arange(1.0, 4.0))

    def forward(self, x, shift=0.0):
        return self.w * x + shift

net = nn.DataParallel(Scale())
net
net.device_ids
out = net(torch.ones(3), shift=0.5)
out
out.sum().backward()
net.module.w.grad
list(net.state_dict().keys())
[n for n, p in net.named_parameters()]
type(net)
isinstance(net, nn.Module)
inner = Scale()
inner.load_state_dict(net.module.state_dict())
nn.DataParallel(Scale(), device_ids=[0, 1]).device_ids
net.output_device
