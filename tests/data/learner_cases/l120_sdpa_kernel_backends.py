# Choosing scaled_dot_product_attention's backend with torch.nn.attention.sdpa_kernel, as
# the SDPA tutorial does on a CPU: MATH runs the composed ops, a list with the flash kernel
# lets it win, and a block that enables neither of the CPU's two has no viable backend.
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
q = torch.linspace(-1, 1, 16).view(1, 2, 2, 4).requires_grad_()
SDPBackend.MATH, str(SDPBackend.FLASH_ATTENTION), SDPBackend.EFFICIENT_ATTENTION.value
type(SDPBackend.MATH)
with sdpa_kernel(SDPBackend.MATH) as k:
    out = F.scaled_dot_product_attention(q, q, q)
k
out
out.grad_fn
out.sum().backward()
q.grad
with sdpa_kernel([SDPBackend.MATH, SDPBackend.FLASH_ATTENTION]):
    fl = F.scaled_dot_product_attention(q, q, q)
fl.grad_fn
with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):
    F.scaled_dot_product_attention(q, q, q).grad_fn
with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
    F.scaled_dot_product_attention(q, q, q)
