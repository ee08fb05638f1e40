import torch
from torch.autograd.functional import hessian, hvp
for t in [lambda: torch.einsum('ij,jk->ik', torch.ones(2,3), torch.ones(3)), lambda: torch.einsum('ijk->i', torch.ones(2,3)), lambda: torch.einsum('ii->i', torch.ones(2,3)), lambda: torch.einsum('ij->ix', torch.ones(2,3)), lambda: torch.einsum('ij,jk->ik', torch.ones(2,3), torch.ones(2,2))]:
  try: print(t())
  except Exception as e: print(e)
for t in [lambda: hessian(lambda v: v*2, torch.ones(2)), lambda: hessian(lambda v: (v, v), torch.ones(2)), lambda: hessian(lambda v: 3, torch.ones(2)), lambda: hvp(lambda v: v*2, torch.ones(2), torch.ones(2)), lambda: hessian(lambda v: v.sum().reshape(1,1), torch.ones(2))]:
  try: print(t())
  except Exception as e: print(e)
torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(2, 2))
