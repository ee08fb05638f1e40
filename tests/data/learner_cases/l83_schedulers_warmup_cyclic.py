import torch
# warm-up then decay, cycles, restarts: the schedules a learner copies from a blog post
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3)
decay = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
sched = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, decay, cos], milestones=[3, 6])
print(sched.get_last_lr(), sched.last_epoch)
for i in range(10):
    opt.step()
    sched.step()
    print(i, sched.get_last_lr())

w = torch.zeros(1, requires_grad=True)
adam = torch.optim.Adam([w], lr=0.1)
cyc = torch.optim.lr_scheduler.CyclicLR(adam, base_lr=0.001, max_lr=0.01, step_size_up=2, step_size_down=3, mode='triangular2')
for i in range(11):
    adam.step(); cyc.step()
    print(i, cyc.get_last_lr(), adam.param_groups[0]['betas'])
sgd = torch.optim.SGD([w], lr=0.1, momentum=0.9)
exp = torch.optim.lr_scheduler.CyclicLR(sgd, 0.01, 0.1, step_size_up=3, mode='exp_range', gamma=0.9)
lrs = []
for i in range(8):
    sgd.step(); exp.step()
    lrs.append(exp.get_last_lr()[0])
print(lrs, sgd.param_groups[0]['momentum'])

opt2 = torch.optim.SGD([w], lr=0.1)
wr = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt2, T_0=3, T_mult=2, eta_min=0.001)
for i in range(10):
    opt2.step(); wr.step()
    print(i, wr.get_last_lr(), wr.T_cur, wr.T_i)
for epoch in range(2):
    for k in range(4):
        wr.step(epoch + k / 4)
print(wr.get_last_lr(), wr.last_epoch)
print(wr.state_dict())
print(decay.state_dict())

opt3 = torch.optim.SGD([w], lr=1.0)
chain = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(opt3, factor=0.1, total_iters=2),
                                                   torch.optim.lr_scheduler.ExponentialLR(opt3, gamma=0.9)])
for i in range(4):
    opt3.step(); chain.step()
    print(chain.get_last_lr())
torch.optim.lr_scheduler.SequentialLR(opt, [warm, decay], milestones=[1, 2])
