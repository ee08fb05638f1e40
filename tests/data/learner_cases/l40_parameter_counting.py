import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(10, 20), nn.BatchNorm1d(20), nn.ReLU(), nn.Linear(20, 5))
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"total: {total:,}  trainable: {trainable:,}")
for p in model[0].parameters():
    p.requires_grad = False
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
print([n for n, _ in model.named_parameters()])
print([n for n, _ in model.named_buffers()])
print(model[1].running_mean[:3], model[1].num_batches_tracked)
print(len(list(model.modules())), len(list(model.children())))
print(model.state_dict()['1.running_var'].shape)
model.zero_grad()
print(model[3].weight.grad)
