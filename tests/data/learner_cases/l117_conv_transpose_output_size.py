import torch, torch.nn as nn
_ = torch.manual_seed(0)
down = nn.Conv2d(16, 16, 3, stride=2, padding=1)
up = nn.ConvTranspose2d(16, 16, 3, stride=2, padding=1)
x = torch.randn(1, 16, 12, 12)
h = down(x)
print(h.size())
print(up(h, output_size=x.size()).size())
print(up(h).size())
print(up(h, output_size=[11, 11]).size())
print(up(h, output_size=(1, 16, 11, 11)).size())
for bad in ([13, 13], (1, 16, 10, 10), x.size()[1:], [12], [1, 12, 12], [12, 12, 12, 12, 12]):
    try:
        up(h, output_size=bad)
    except ValueError as e:
        print(e)
u1 = nn.ConvTranspose1d(2, 3, 4, stride=3)
print(u1(torch.randn(2, 5), output_size=[17]).shape)
try:
    u1(torch.randn(2, 5), output_size=[15])
except ValueError as e:
    print(e)
print(u1(torch.randn(4, 2, 5), output_size=[4, 3, 18]).shape)
up(h, output_size=[6, 6])
