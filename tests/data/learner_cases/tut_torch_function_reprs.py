# Looking at a torch function itself, as the vmap recipe's first cell does: PyTorch's C
# functions print as built-in methods, its Python ones as functions.
torch.dot
batched_dot = torch.vmap(torch.dot)
print(torch.exp)
print(f"{torch.zeros_like} | {torch.tensor}")
str(torch.matmul).startswith("<built-in method matmul of type object at 0x")
type(torch.exp)
type(torch.is_grad_enabled)
torch.is_grad_enabled
torch.get_default_dtype
print(str(torch.manual_seed).split(" at ")[0])
print(str(torch.einsum).split(" at ")[0])
type(torch.norm)
