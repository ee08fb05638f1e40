# With only the flash kernel enabled, attention with dropout (which the CPU's flash kernel
# does not do) finds no kernel; a backend that is not an SDPBackend is refused on entry.
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
x = torch.ones(1, 1, 3, 2)
try:
    with sdpa_kernel("MATH"):
        pass
except AssertionError as e:
    print(e)
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    F.scaled_dot_product_attention(x, x, x, dropout_p=0.5)
