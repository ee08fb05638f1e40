"""Record PyTorch's bits for the work it hands to MKL (tests/engine/test_mkl.py compares).

Inputs drawn here (NumPy, fixed seed), outputs computed by real PyTorch 2.13 with its
default threads (and with one thread for one product whose bits depend on the threads):
every VML function gradrepl routes through engine/mkl.py, in float32 and float64, and the
matrix products in the layouts that pick other BLAS flags (row- and column-major operands,
addmm's bias, mv, dot, bmm below and above aten's naive-kernel threshold, batched matmul).
Writes tests/data/mkl_golden.npz.

    /work/torchvenv/bin/python scripts/record_mkl_golden.py
"""
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "mkl_golden.npz"
FUNCS = ("sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "atan", "asin", "acos", "erf", "erfc", "erfinv",
         "log10", "log2")
POSITIVE = {"log", "sqrt", "log10", "log2"}
UNIT = {"asin", "acos", "erfinv"}
SHAPES = [(16, 784, 64), (32, 30, 200), (32, 200, 27), (2000, 3, 1), (1, 300, 200), (200, 300, 1), (5, 7, 3),
          (2, 4, 16), (1, 5, 1), (10, 40, 256), (64, 50, 50)]
BATCHED = [(4, 5, 6, 7), (3, 10, 20, 30), (2, 64, 64, 64)]


def main():
    rng = np.random.default_rng(2026)
    data = {}
    torch.set_num_threads(torch.get_num_threads())
    for dt in ("float32", "float64"):
        base = np.concatenate([rng.standard_normal(300) * 4, rng.uniform(-1, 1, 200),
                               np.exp(rng.uniform(-20, 20, 100)) * np.sign(rng.standard_normal(100))])
        for name in FUNCS:
            x = np.abs(base) if name in POSITIVE else np.clip(base, -1, 1) if name in UNIT else base
            x = x.astype(dt)
            data[f"vml|{name}|{dt}|in"] = x
            data[f"vml|{name}|{dt}|out"] = getattr(torch, name)(torch.from_numpy(x)).numpy()
    for i, (m, k, n) in enumerate(SHAPES):
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        c = rng.standard_normal(n).astype(np.float32)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        data[f"mm|{i}|a"], data[f"mm|{i}|b"], data[f"mm|{i}|c"] = a, b, c
        data[f"mm|{i}|nn"] = (ta @ tb).numpy()
        data[f"mm|{i}|tn"] = (ta.t().contiguous().t() @ tb).numpy()       # column-major a
        data[f"mm|{i}|nt"] = (ta @ tb.t().contiguous().t()).numpy()       # column-major b (Linear's weight.t())
        data[f"mm|{i}|addmm"] = torch.addmm(torch.from_numpy(c), ta, tb.t().contiguous().t()).numpy()
        data[f"mm|{i}|mv"] = (ta @ tb[:, 0]).numpy()
        data[f"mm|{i}|mvT"] = (tb.t() @ ta[0]).numpy()
        data[f"mm|{i}|dot"] = (ta[0] @ tb[:, 0]).numpy()
        with_one = torch.get_num_threads()
        torch.set_num_threads(1)
        data[f"mm|{i}|nn1"] = (ta @ tb).numpy()
        torch.set_num_threads(with_one)
    for i, (bs, m, k, n) in enumerate(BATCHED):
        a = rng.standard_normal((bs, m, k)).astype(np.float32)
        b = rng.standard_normal((bs, k, n)).astype(np.float32)
        data[f"bmm|{i}|a"], data[f"bmm|{i}|b"] = a, b
        data[f"bmm|{i}|out"] = torch.bmm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        data[f"bmm|{i}|outT"] = torch.bmm(torch.from_numpy(a),
                                          torch.from_numpy(b).transpose(1, 2).contiguous().transpose(1, 2)).numpy()
        data[f"bmm|{i}|bcast"] = (torch.from_numpy(a[:, None]) @ torch.from_numpy(b[0])).numpy()
    data["threads"] = np.asarray(torch.get_num_threads())
    np.savez_compressed(OUT, **data)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(data)} arrays)")


if __name__ == "__main__":
    main()
