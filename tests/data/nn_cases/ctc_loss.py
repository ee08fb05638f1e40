import torch
import torch.nn as nn
import torch.nn.functional as F
_ = torch.manual_seed(0)
T, N, C, S = 12, 3, 5, 4
logits = torch.randn(T, N, C, requires_grad=True)
log_probs = logits.log_softmax(2)
targets = torch.randint(1, C, (N, S), dtype=torch.long)
input_lengths = torch.tensor([12, 10, 11])
target_lengths = torch.tensor([4, 2, 3])
loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths)
loss
loss.item()
loss.backward()
logits.grad[0].tolist()
logits.grad[9, 1].tolist()
logits.grad[11].tolist()
none = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="none")
none.tolist()
none.grad_fn
s = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="sum")
s
ctc = nn.CTCLoss(blank=0)
ctc
ctc(log_probs, targets, input_lengths, target_lengths)
flat = torch.cat([targets[0, :4], targets[1, :2], targets[2, :3]])
F.ctc_loss(log_probs, flat, (12, 10, 11), (4, 2, 3), reduction="none").tolist()
x = torch.randn(6, 4, requires_grad=True)
u = F.ctc_loss(x.log_softmax(1), torch.tensor([1, 2, 2]), torch.tensor(6), torch.tensor(3))
u
u.backward()
x.grad.tolist()
rep = torch.tensor([[1, 1, 1, 1]])
inf_loss = F.ctc_loss(log_probs[:, :1], rep, [5], [4], reduction="none")
inf_loss
F.ctc_loss(log_probs[:, :1], rep, [5], [4], zero_infinity=True)
z = logits.detach().double().log_softmax(2).requires_grad_()
zl = nn.CTCLoss(blank=4, reduction="sum", zero_infinity=True)(z, targets - 1, input_lengths, target_lengths)
zl
zl.backward()
z.grad[3].tolist()
