import torch, torch.nn as nn
x3 = torch.zeros(1, 20, 1); x2 = torch.zeros(20, 1)
for t in [lambda: nn.RNN(1, 8, batch_first=True)(x3, torch.zeros(1, 8)), lambda: nn.RNN(1, 8)(x2, torch.zeros(1, 1, 8)), lambda: nn.RNN(1, 8)(x3, torch.zeros(1, 2, 8)), lambda: nn.GRU(1, 8)(x3, torch.zeros(1, 8)), lambda: nn.LSTM(1, 8)(x3, (torch.zeros(1, 8), torch.zeros(1,8))), lambda: nn.LSTM(1, 8)(x3, (torch.zeros(1, 1, 8), torch.zeros(1,2,8))), lambda: nn.RNN(1, 8, num_layers=2)(x3, torch.zeros(1, 1, 8)), lambda: nn.RNN(1, 8)(x2, torch.zeros(1, 8))[1].shape, lambda: nn.LSTM(1, 8, batch_first=True)(x3, (torch.zeros(1, 1, 8), torch.zeros(1, 1, 8)))[1][0].shape]:
  try: r = t(); print('ok', r if isinstance(r, torch.Size) else '')
  except Exception as e: print(e)
