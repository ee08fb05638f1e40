# torch.linalg.qr and nn.init.orthogonal_ run LAPACK's ?geqrf and ?orgqr in MKL, whose AVX2
# code gives these last bits (CASE.mkl-avx2.out only: an AVX512 machine's MKL gives others)
import torch
_ = torch.manual_seed(3)
for s in [(5, 3), (3, 5), (4, 4), (6, 2)]:
    for dt in (torch.float32, torch.float64):
        a = torch.randn(*s, dtype=dt)
        q, r = torch.linalg.qr(a)
        qc, rc = torch.linalg.qr(a, mode="complete")
        print(s, dt, q.tolist(), r.tolist(), qc.tolist(), rc.tolist())
b = torch.randn(2, 4, 3)
torch.linalg.qr(b).Q.tolist()
w = torch.empty(3, 5)
torch.nn.init.orthogonal_(w).tolist()
(w @ w.t()).tolist()
torch.nn.init.orthogonal_(torch.empty(4, 2, 2), gain=2.0).tolist()
