import torch
from torch import nn

torch.manual_seed(0)
lstm = nn.LSTM(3, 4)
lstm
[name for name, p in lstm.named_parameters()]
lstm.weight_hh_l0[:2]
x = torch.randn(5, 2, 3)
out, (h, c) = lstm(x)
out.shape
out[-1]
h
c
out.sum().backward()
lstm.weight_ih_l0.grad[:3]
gru = nn.GRU(3, 4, num_layers=2, batch_first=True)
gru
o, hn = gru(torch.randn(2, 5, 3))
o[:, -1]
hn
rnn = nn.RNN(3, 2, bidirectional=True)
rnn
o, hn = rnn(torch.randn(4, 3))
o
hn
lstm2 = nn.LSTM(2, 3, batch_first=True)
seq = torch.randn(1, 4, 2)
h0 = (torch.zeros(1, 1, 3), torch.ones(1, 1, 3))
y, (hy, cy) = lstm2(seq, h0)
y
