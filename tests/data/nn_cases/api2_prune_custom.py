import torch
import torch.nn as nn
import torch.nn.utils.prune as prune
_ = torch.manual_seed(0)
class FooBarPruningMethod(prune.BasePruningMethod):
    """Prune every other entry in a tensor
    """
    PRUNING_TYPE = 'unstructured'

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask
def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
_ = foobar_unstructured(model[2], name="bias")
print(model[2].bias_mask)
print(model[2].bias)
_ = prune.L1Unstructured.apply(model[0], 'weight', amount=0.5)
print(model[0].weight)
_ = prune.random_structured(model[0], 'weight', amount=1, dim=0)
print(model[0].weight_mask)
_ = prune.identity(model[0], 'bias')
print(model[0].bias_mask)
_ = prune.custom_from_mask(model[2], 'weight', torch.tensor([[1., 0, 1, 0], [0, 1, 0, 1]]))
print(model[2].weight)
y = model(torch.ones(1, 3))
y.sum().backward()
print(model[2].weight_orig.grad)
print(prune.is_pruned(model), prune.is_pruned(nn.Linear(2, 2)))
try:
    prune.remove(nn.Linear(2, 2), 'weight')
except ValueError as e:
    print(e)
try:
    prune.l1_unstructured(model[2], 'weight', amount=1.5)
except ValueError as e:
    print(e)
try:
    prune.l1_unstructured(model[2], 'weight', amount=20)
except ValueError as e:
    print(e)
p = prune.L1Unstructured(0.5)
print(p.prune(torch.tensor([1., -3, 2, 0.5])))
