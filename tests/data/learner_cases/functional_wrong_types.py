import torch
import torch.nn as nn
import torch.nn.functional as F

# torch.nn.functional called with arguments of the wrong type: the message of the C++ function PyTorch reaches
x = torch.ones(2, 3)
tests = [lambda: F.relu("a"), lambda: F.softmax(x, "a"), lambda: F.cross_entropy(x, "a"), lambda: F.linear(x, "a"),
         lambda: F.mse_loss(x, 1.0), lambda: F.cross_entropy(x, [0, 1]), lambda: F.log_softmax(x, dim=1.5),
         lambda: F.dropout(x, "a"), lambda: F.sigmoid([1.0]), lambda: F.tanh(2.0), lambda: F.gelu("a"),
         lambda: F.one_hot([0, 1]), lambda: F.pad(x, "a"), lambda: F.nll_loss(x, 1),
         lambda: F.embedding([0], x), lambda: F.leaky_relu(x, "a"), lambda: nn.Linear(3, 2)("a"),
         lambda: nn.Linear(3, 2)([1., 2., 3.]), lambda: nn.MSELoss()(x, 1.0)]
for i, f in enumerate(tests):
    try:
        print(i, "OK", f())
    except Exception as e:
        print(i, repr(e).split("(")[0] + ":", str(e).splitlines()[0])
print(F.softmax(x, dim=1)[0], F.cross_entropy(x, torch.tensor([0, 2])))
F.relu([1.0, -1.0])
