# 2-norms and 1-norms over the innermost contiguous elements, in PyTorch's CPU order: squares in
# vectors of 8 lanes (float32) / 4 (float64), the lanes one by one, the leftovers four squares at
# a time then fused multiply-adds; |x| added one by one. d2l's weight decay prints torch.norm(w).
import torch
torch.manual_seed(0)
w = torch.normal(0, 1, size=(200, 1))
torch.norm(w).item()
w.norm().item()
torch.linalg.vector_norm(w).item()
torch.linalg.norm(w).item()
torch.norm(w[:64]).item()
torch.norm(w.reshape(20, 10), dim=1).tolist()
torch.norm(w.reshape(20, 10), dim=-1, keepdim=True).shape
torch.norm(w.reshape(2, 10, 10), dim=(1, 2)).tolist()
torch.norm(w.reshape(2, 10, 10), dim=(2, 1), keepdim=True).tolist()
torch.norm(w.reshape(20, 10), keepdim=True)
torch.norm(w.reshape(20, 10), dim=0).tolist()
torch.norm(w.reshape(20, 10).t(), dim=1).tolist()
torch.randn(4, 333).norm(dim=1).tolist()
torch.randn(3, 1003, dtype=torch.float64).norm(dim=1).tolist()
torch.randn(6, 3).norm(dim=1).tolist()
torch.randn(6, 14).norm(dim=1).tolist()
torch.tensor(3.0).norm()
torch.zeros(0, 3).norm(dim=1)
x = torch.randn(7, 13, requires_grad=True)
n = x.norm(dim=1)
n.sum().backward()
x.grad[0].tolist()
n
torch.norm(w, p=1).item()
torch.norm(w.reshape(20, 10), p=1, dim=1).tolist()
torch.linalg.vector_norm(torch.randn(3, 77), ord=1, dim=-1).tolist()
torch.randn(2, 40000).norm(p=1, dim=1).tolist()
torch.randn(2, 40000).norm(dim=1).tolist()
