import torch
from torch import nn, optim
from torch.optim import lr_scheduler
weights = nn.Parameter(torch.ones(2))
kinds = [
    lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9),
    lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 4, 4], gamma=0.5),
    lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.001),
    lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4),
    lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3),
    lambda o: lr_scheduler.PolynomialLR(o, total_iters=5, power=2.0),
    lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.9),
    lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=10),
]
for make in kinds:
    opt = optim.SGD([weights], lr=0.1, momentum=0.9)
    s = make(opt)
    lrs = []
    for i in range(9):
        opt.step()
        s.step()
        lrs.append(s.get_last_lr()[0])
    print(lrs, s.last_epoch, opt.param_groups[0]['momentum'])
opt = optim.Adam([weights], lr=0.01)
s = optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=5, anneal_strategy='linear')
for i in range(10):
    opt.step()
    s.step()
    print(f"{opt.param_groups[0]['lr']:.6f} {opt.param_groups[0]['betas']}")
opt = optim.SGD([weights], lr=1.0)
plateau = optim.lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1, cooldown=1)
for metric in [5, 4, 4, 4, 4, 4, 3, 3, 3, 3]:
    plateau.step(metric)
    print(plateau.get_last_lr(), plateau.num_bad_epochs, plateau.best)
plateau.in_cooldown
s.step()
