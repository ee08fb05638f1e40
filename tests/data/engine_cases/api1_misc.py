import torch
gen = torch.manual_seed(0)
torch.empty(5).geometric_(0.3)
torch.empty(3, dtype=torch.float64).geometric_(0.7)
torch.empty(2, dtype=torch.int64).geometric_(0.5)
x = torch.ones(2, 3, 4).permute(2, 0, 1)
x.dim_order()
x.is_maia
x.grad_dtype
y = torch.ones(3)
y.is_set_to(y), y[:2].is_set_to(y)
torch.get_deterministic_debug_mode()
torch.set_deterministic_debug_mode("warn")
torch.get_deterministic_debug_mode(), torch.are_deterministic_algorithms_enabled()
torch.set_deterministic_debug_mode(0)
torch.compiled_with_cxx11_abi()
torch.addmv_(torch.zeros(2), torch.ones(2, 2), torch.ones(2))
torch.ldexp_(torch.ones(2), torch.tensor([1, 2]))
try:
    torch.set_deterministic_debug_mode("x")
except RuntimeError as e:
    print(e)
torch.empty(2).geometric_(1.5)
