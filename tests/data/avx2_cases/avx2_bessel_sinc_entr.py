# i0, i0e, i1, i1e as ATen's calc_i0 & co. (Cephes' Chebyshev series, fused steps, libm's exp);
# sinc of float32 with libm's sinf; special.entr of float32 with libm's logf
import torch
torch.manual_seed(7)
x = torch.randn(40) * 5
for dt in (torch.float32, torch.float64):
    v = x.to(dt)
    torch.i0(v).tolist()
    torch.special.i0e(v).tolist()
    torch.special.i1(v).tolist()
    torch.special.i1e(v).tolist()
    torch.sinc(v).tolist()
    torch.special.entr(v.abs()).tolist()
torch.special.i0e(torch.tensor([0.0, 8.0, 8.000001, 100.0, float('inf'), float('nan')])).tolist()
torch.sinc(torch.tensor([0.0, -0.0, 1.0, 1e-20, float('inf')])).tolist()
