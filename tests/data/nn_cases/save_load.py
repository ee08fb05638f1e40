import torch
from torch import nn
torch.manual_seed(0)
m = nn.Linear(3, 2)
torch.save(m.state_dict(), 'model.pth')
sd = torch.load('model.pth', weights_only=True)
sd
type(sd)
with torch.no_grad():
    m.weight.fill_(1.0)
m.weight
m.load_state_dict(torch.load('model.pth', weights_only=True))
m.weight
m2 = nn.Linear(3, 2)
m2.load_state_dict(torch.load('model.pth'))
torch.equal(m2.weight, m.weight)
m2.weight is m.weight
torch.save(m, 'full.pth')
m3 = torch.load('full.pth', weights_only=False)
m3
m3.weight.requires_grad
m3.weight is m.weight
torch.equal(m3(torch.ones(3)), m(torch.ones(3)))
p = nn.Parameter(torch.ones(2))
torch.save({'p': p, 'l': [1, 2.5, 'a', None, (torch.tensor(3),)], 'step': 4}, 'c.pt')
c = torch.load('c.pt')
c
type(c['p'])
t = torch.ones(3, requires_grad=True)
u = t * 2
torch.save(u, 'u.pt')
torch.load('u.pt')
torch.load('u.pt').grad_fn
x = torch.arange(4.)
torch.save([x, x], 'same.pt')
l = torch.load('same.pt')
l[0] is l[1]
l[0] is x
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
m(torch.ones(3)).sum().backward()
opt.step()
torch.save({'epoch': 5, 'model_state_dict': m.state_dict(), 'optimizer_state_dict': opt.state_dict(), 'loss': torch.tensor(0.5)}, 'ck.tar')
ck = torch.load('ck.tar', weights_only=True)
ck['epoch']
ck['loss']
ck['optimizer_state_dict']
opt2 = torch.optim.SGD(m2.parameters(), lr=0.5)
opt2.load_state_dict(ck['optimizer_state_dict'])
opt2
torch.load('ck.tar', map_location='cpu')['epoch']
torch.load('ck.tar', map_location=torch.device('cpu'))['epoch']
torch.load('./ck.tar')['epoch']
torch.save(torch.zeros(2), 'model.pth')
torch.load('model.pth')
torch.load('x.pth')
