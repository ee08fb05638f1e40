import torch
def t(f):
  try: print(f())
  except Exception as e: print(e)
def s1(): y=torch.arange(4); y[[0]] = torch.tensor(1.5); return y
def s2(): y=torch.arange(4); y[y>1] = torch.zeros(2); return y
def s3(): y=torch.arange(4); y[y>1] = torch.zeros(1); return y
def s4(): y=torch.zeros(4); y[[0,1]] = torch.arange(2); return y
def s5(): y=torch.zeros(4, dtype=torch.float64); y[[0,1]] = torch.ones(2); return y
def s6(): y=torch.zeros(2,2); y[0, [0,1]] = torch.arange(2); return y
def s7(): y=torch.zeros(4); y[1:3] = torch.arange(2); return y
def s8(): y=torch.zeros(4); y[torch.tensor([True,False,True,False])] = torch.tensor([1,2]); return y
for f in [s1,s2,s3,s4,s5,s6,s7,s8]: t(f)
y = torch.arange(10)
y[[0, -1]] = torch.zeros(2)
