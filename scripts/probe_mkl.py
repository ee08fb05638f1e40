#!/usr/bin/env python3
"""Does Intel MKL, called directly, give PyTorch's float32 bits? (issues 14 and 18: a probe,
not part of gradrepl or its tests.)

PyTorch's CPU build computes matrix products with MKL's sgemm and many pointwise functions
(sin, cos, tan, exp, log, sqrt, tanh, atan, erf, ...) with MKL's vector math library
(VML); `torch.__config__.show()` names the version (2024.2 for torch 2.13.0). gradrepl
computes them with NumPy (OpenBLAS; float64 rounded to float32), which differs from PyTorch
in the last bit for a few percent of the values. This probe calls MKL's `vs*` functions
and `cblas_sgemm` through ctypes on the same inputs PyTorch gets and counts the values
that differ, with the BLAS threads of both set alike (a product's bits depend on them).

    python3 -m venv /tmp/mklvenv && /tmp/mklvenv/bin/pip install mkl==2024.2.0 numpy
    /tmp/mklvenv/bin/python scripts/probe_mkl.py --torch /work/torchvenv/bin/python

Seen on 2026-12-01 (AMD EPYC, AVX512, 2 threads each): every function above and every
product shape tried equal PyTorch's bits exactly (0 of 200,000 values; 0 of every
product), where NumPy's differ in up to 5% of the values (sin 4.9%, sqrt 0.7%, tanh
0.6%) and in most entries of products with long sums (40x784 @ 784x256: 89%; 1x1000 @
1000x1000: 90%); with other thread counts on the two sides, such products differ again.
"""
import argparse
import ctypes
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

FUNCS = ("Sin", "Cos", "Tan", "Exp", "Ln", "Sqrt", "Tanh", "Atan", "Erf")
TORCH = {"Sin": "torch.sin", "Cos": "torch.cos", "Tan": "torch.tan", "Exp": "torch.exp", "Ln": "torch.log",
         "Sqrt": "torch.sqrt", "Tanh": "torch.tanh", "Atan": "torch.atan", "Erf": "torch.erf"}
SHAPES = [(40, 784, 256), (40, 256, 10), (2000, 3, 1), (1, 1000, 1000), (1000, 1000, 1), (32, 30, 200),
          (32, 200, 27), (64, 512, 512), (5, 7, 3), (128, 64, 128)]

_TORCH_SIDE = r'''
import sys, numpy as np, torch
torch.set_num_threads(int(sys.argv[2]))
d = np.load(sys.argv[1])
x = torch.from_numpy(d["x"])
out = {}
for name, fn in %s.items():
    inp = x.abs() if name in ("Ln", "Sqrt") else x
    out[name] = eval(fn)(inp).numpy()
for i in range(%d):
    out[f"C{i}"] = (torch.from_numpy(d[f"A{i}"]) @ torch.from_numpy(d[f"B{i}"])).numpy()
np.savez(sys.argv[1] + ".torch.npz", **out)
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--torch", default="/work/torchvenv/bin/python", help="a Python with torch 2.13")
    parser.add_argument("--mkl", default=None, help="libmkl_rt.so (default: under sys.prefix/lib)")
    parser.add_argument("--threads", type=int, default=os.cpu_count(), help="BLAS threads on both sides")
    args = parser.parse_args()
    path = args.mkl or (sorted(glob.glob(os.path.join(sys.prefix, "lib", "libmkl_rt.so*"))) or [None])[0]
    if path is None:
        sys.exit("no libmkl_rt.so: pip install mkl==2024.2.0 into this Python, or pass --mkl")
    mkl = ctypes.CDLL(path)
    mkl.MKL_Set_Num_Threads(args.threads)
    f32 = ctypes.POINTER(ctypes.c_float)
    mkl.cblas_sgemm.argtypes = [ctypes.c_int] * 6 + [ctypes.c_float, f32, ctypes.c_int, f32, ctypes.c_int,
                                                     ctypes.c_float, f32, ctypes.c_int]
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(200_000) * 4).astype(np.float32)
    data, mine = {"x": x}, {}
    for name in FUNCS:
        inp = np.abs(x) if name in ("Ln", "Sqrt") else x
        out = np.empty_like(inp)
        getattr(mkl, "vs" + name)(ctypes.c_longlong(inp.size), inp.ctypes.data_as(f32), out.ctypes.data_as(f32))
        mine[name] = out
    for i, (m, k, n) in enumerate(SHAPES):
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        c = np.zeros((m, n), np.float32)
        mkl.cblas_sgemm(101, 111, 111, m, n, k, 1.0, a.ctypes.data_as(f32), k, b.ctypes.data_as(f32), n, 0.0,
                        c.ctypes.data_as(f32), n)
        data[f"A{i}"], data[f"B{i}"], mine[f"C{i}"] = a, b, c
    with tempfile.TemporaryDirectory() as tmp:
        inputs = os.path.join(tmp, "in.npz")
        np.savez(inputs, **data)
        code = _TORCH_SIDE % (json.dumps(TORCH), len(SHAPES))
        subprocess.run([args.torch, "-c", code, inputs, str(args.threads)], check=True)
        theirs = dict(np.load(inputs + ".torch.npz"))
    for name in FUNCS:
        t, inp = theirs[name], np.abs(x) if name in ("Ln", "Sqrt") else x
        numpy_way = {"Erf": None}.get(name, getattr(np, {"Ln": "log", "Atan": "arctan"}.get(name, name.lower()), None))
        differ = lambda v: int(np.sum((v != t) & ~(np.isnan(v) & np.isnan(t))))
        np_part = "" if numpy_way is None else f", NumPy (float64 rounded) {differ(numpy_way(inp.astype(np.float64)).astype(np.float32))}"
        print(f"{name:5s} differ from PyTorch: MKL {differ(mine[name])} of {t.size}{np_part}")
    for i, (m, k, n) in enumerate(SHAPES):
        t = theirs[f"C{i}"]
        print(f"{m}x{k} @ {k}x{n}: MKL {int(np.sum(mine[f'C{i}'] != t))}, NumPy "
              f"{int(np.sum(data[f'A{i}'] @ data[f'B{i}'] != t))} of {t.size} differ")


if __name__ == "__main__":
    main()
