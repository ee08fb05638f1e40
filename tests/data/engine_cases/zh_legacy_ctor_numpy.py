# Old-style constructors the Chinese textbooks use, fed NumPy data and tuples
import torch
import numpy as np
np.random.seed(1)
arr = np.random.randn(2, 3)
t1 = torch.Tensor(arr)
t1.dtype
t1.shape
torch.FloatTensor(np.arange(4).reshape(2, 2))
torch.LongTensor(np.array([1.7, -2.5]))
torch.DoubleTensor(np.array([1.5, 2.25], dtype=np.float32))
torch.Tensor(np.array(2.0))
torch.Tensor(np.int64(3)).shape
torch.Tensor((2, 3))
torch.IntTensor((4, 5))
torch.Tensor(torch.Size([2, 3])).shape
torch.Tensor()
torch.LongTensor()
x = torch.zeros(3, 2)
noise = np.random.normal(0, 0.01, size=x.size())
noise.shape
np.zeros(x.shape).shape
np.ones(x.size()).sum()
torch.cuda.FloatTensor
torch.cuda.LongTensor
torch.FloatTensor.dtype
isinstance(x, torch.cuda.FloatTensor), isinstance(x, torch.FloatTensor)
try:
    torch.cuda.FloatTensor([1, 2])
except TypeError as e:
    print(e)
torch.Tensor(np.float32(1.5))
