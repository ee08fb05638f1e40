# A parameter count the long way: NumPy reads a torch.Size as the tuple it is.
import numpy as np

conv = torch.nn.Conv2d(3, 8, kernel_size=3)
for name, p in conv.named_parameters():
    print(f"{name}: {np.prod(p.size())} == {p.numel()}")
np.prod(conv.weight.shape)
np.array(conv.weight.shape)
np.sum(conv.bias.shape)
np.asarray([conv.weight.shape[:2], conv.weight.shape[2:]])
np.zeros(conv.weight.shape[2:])
shapes = [p.shape for p in conv.parameters()]
total = sum(int(np.prod(s)) for s in shapes)
total
np.prod(conv.weight.shape, dtype=np.float32)
np.array(torch.Size([]))
