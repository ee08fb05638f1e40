import torch
from torch import nn
_ = torch.manual_seed(0)
mods = [nn.LSTM(3, 4), nn.GRUCell(3, 4), nn.Linear(3, 4), nn.RNN(2, 2), nn.LSTMCell(2, 3)]
[isinstance(m, nn.RNNBase) for m in mods]
[isinstance(m, nn.RNNCellBase) for m in mods]
nn.GRUCell(3, 4, bias=False)
nn.LSTMCell(3, 4).weight_hh.shape
