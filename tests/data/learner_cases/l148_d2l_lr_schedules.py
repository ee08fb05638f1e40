# Learning-rate schedules in the style of d2l's lr-scheduler chapter (own program): MultiStepLR read
# through get_last_lr, and schedules written as plain functions that set param_group['lr'] each epoch.
import math
import torch
from torch import nn
from torch.optim import lr_scheduler

def factor_schedule(factor, stop_factor_lr, base_lr):
    state = {'lr': base_lr}
    def schedule(num_update):
        state['lr'] = max(stop_factor_lr, state['lr'] * factor)
        return state['lr']
    return schedule

def cosine_schedule(max_update, base_lr=0.01, final_lr=0, warmup_steps=0, warmup_begin_lr=0):
    max_steps = max_update - warmup_steps
    state = {'lr': base_lr}
    def schedule(epoch):
        if epoch < warmup_steps:
            return warmup_begin_lr + (base_lr - warmup_begin_lr) * float(epoch) / float(warmup_steps)
        if epoch <= max_update:
            state['lr'] = final_lr + (base_lr - final_lr) * (1 + math.cos(math.pi * (epoch - warmup_steps) / max_steps)) / 2
        return state['lr']
    return schedule

sqrt_schedule = lambda t: 0.1 * pow(t + 1.0, -0.5)
print([round(sqrt_schedule(t), 6) for t in range(5)])
f = factor_schedule(0.9, 0.01, 2.0)
print([f(t) for t in range(4)])
c = cosine_schedule(20, warmup_steps=5, base_lr=0.3, final_lr=0.01)
print([c(t) for t in (0, 3, 5, 12, 20, 25)])

torch.manual_seed(1)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
scheduler = lr_scheduler.MultiStepLR(trainer, milestones=[4, 8], gamma=0.5)
def get_lr(trainer, scheduler):
    lr = scheduler.get_last_lr()[0]
    trainer.step()
    scheduler.step()
    return lr
print([get_lr(trainer, scheduler) for t in range(10)])

X = torch.randn(32, 4)
y = (X[:, 0] > 0).long() + (X[:, 1] > 0).long()
loss = nn.CrossEntropyLoss()
def train(net, trainer, num_epochs, scheduler=None):
    for epoch in range(num_epochs):
        for i in range(0, 32, 8):
            trainer.zero_grad()
            l = loss(net(X[i:i + 8]), y[i:i + 8])
            l.backward()
            trainer.step()
        if scheduler is not None:
            if isinstance(scheduler, lr_scheduler.LRScheduler):
                scheduler.step()
            else:
                for param_group in trainer.param_groups:
                    param_group['lr'] = scheduler(epoch)
        print(epoch, f"{trainer.param_groups[0]['lr']:.5f}", f'{loss(net(X), y).item():.6f}')
torch.manual_seed(2)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
trainer = torch.optim.SGD(net.parameters(), lr=0.3)
train(net, trainer, 4, cosine_schedule(3, base_lr=0.3, final_lr=0.01))
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
train(net, trainer, 4, lr_scheduler.MultiStepLR(trainer, milestones=[1, 3], gamma=0.5))
