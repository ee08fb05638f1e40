import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

torch.manual_seed(3)
layer = nn.Linear(4, 3)
prune.random_unstructured(layer, name="weight", amount=0.25)
[name for name, _ in layer.named_parameters()]
[name for name, _ in layer.named_buffers()]
layer.weight_mask
layer.weight
prune.is_pruned(layer)

# pruning again keeps the earlier mask and prunes what is left
prune.l1_unstructured(layer, name="weight", amount=2)
layer.weight_mask
prune.ln_structured(layer, name="weight", amount=1, n=1, dim=0)
layer.weight_mask
prune.l1_unstructured(layer, "bias", amount=0.34)
layer.bias

# the forward pre-hook recomputes the pruned weight from weight_orig
with torch.no_grad():
    layer.weight_orig.add_(1.0)
out = layer(torch.ones(2, 4))
out
layer.weight
loss = out.sum()
loss.backward()
layer.weight_orig.grad
list(layer.state_dict().keys())

prune.remove(layer, "weight")
[name for name, _ in layer.named_parameters()]
isinstance(layer.weight, nn.Parameter), layer.weight.requires_grad

conv = nn.Conv2d(2, 4, 2)
prune.random_structured(conv, "weight", amount=0.5, dim=1)
conv.weight_mask.sum(dim=(0, 2, 3))
prune.identity(conv, "bias")
conv.bias_mask

a, b = nn.Linear(3, 3), nn.Linear(3, 2)
prune.global_unstructured([(a, "weight"), (b, "weight")], pruning_method=prune.L1Unstructured, amount=5)
int((a.weight == 0).sum()) + int((b.weight == 0).sum())
prune.custom_from_mask(b, "bias", mask=torch.tensor([0., 1.]))
b.bias

# a method's apply returns the hook; pruning twice makes a PruningContainer
m = nn.Linear(3, 2)
first = prune.RandomUnstructured.apply(m, "weight", 0.5)
first.amount
history = prune.L1Unstructured.apply(m, "weight", amount=1)
type(history), len(history)
[type(method) for method in history]

for bad in (-1, 1.5, "half"):
    try:
        prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=bad)
    except (ValueError, TypeError) as e:
        print(e)
try:
    prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=9)
except ValueError as e:
    print(e)
try:
    prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=2, dim=0)
except ValueError as e:
    print(e)
prune.remove(nn.Linear(2, 2), "weight")
