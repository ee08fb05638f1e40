"""Record PyTorch's float32 bits for the element-wise kernels and dim ops gradrepl computes as
PyTorch's CPU kernels do (engine/kernels.py, ops/*): tests/engine/test_float_bits.py
regenerates the inputs (tests/engine/float_bits_cases.py) and compares SHA-256 digests of
the outputs, and the values themselves for the small sizes. Writes tests/data/float_bits.json.

Run where torch 2.13.0 is installed, with the thread count it records (results above 32768
elements depend on it); an AVX512 machine writes tests/data/float_bits.json, an AVX2 one
tests/data/float_bits_avx2.json (PyTorch's kernels use 16 or 8 float32 lanes):
    /work/torchvenv/bin/python scripts/record_float_bits_golden.py
"""
import hashlib
import importlib.util
import json
import pathlib

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("float_bits_cases", ROOT / "tests" / "engine" / "float_bits_cases.py")
C = importlib.util.module_from_spec(spec)
spec.loader.exec_module(C)


def canonical(a, dtype=np.float32):
    """Values in C order, every NaN the positive quiet NaN (0x7fc00000 in float32; a NaN's sign
    and payload are not what issue 14 is about: Python shows them all as nan)."""
    a = np.array(a, dtype, order="C")
    a[np.isnan(a)] = np.nan
    return np.abs(a, where=np.isnan(a), out=a)


def entry(out, dtype=np.float32):
    """The digest of the output's bits, and the bits themselves for small outputs."""
    out = canonical(out, dtype)
    e = {"sha256": hashlib.sha256(out.tobytes()).hexdigest(), "shape": list(out.shape)}
    if out.size <= 40:
        e["bits"] = out.view(np.uint64 if out.itemsize == 8 else np.uint32).ravel().tolist()
    return e


def tensor(a, transposed):
    t = torch.from_numpy(np.ascontiguousarray(a))
    return t.t() if transposed else t


def main():
    capability = torch.backends.cpu.get_cpu_capability()
    assert capability in ("AVX512", "AVX2"), "record on an AVX512 or AVX2 machine"
    F = torch.nn.functional
    out = {"torch": torch.__version__, "threads": torch.get_num_threads(), "capability": capability, "unary": {},
           "backward": {}, "backward_same_order": {}, "dim": {}, "dim_backward": {}, "layer_norm": {}, "sums": {}}
    for i, (name, (dom, fn)) in enumerate(C.UNARY.items()):
        for key, a, tr in C.layouts(1000 * i, C.LIMITS.get(name)):
            x = tensor(dom(a) if dom is not None else a, tr)
            out["unary"][f"{name}|{key}"] = entry(fn(torch, F, x).numpy())
            if name in C.BACKWARD:
                xg = x.detach().clone().requires_grad_() if not tr else tensor(a if dom is None else dom(a), tr).requires_grad_()
                g = torch.from_numpy(np.random.default_rng(7 + a.size).standard_normal(a.size).astype(np.float32))
                fn(torch, F, xg).backward(g.reshape(xg.shape))
                out["backward"][f"{name}|{key}"] = entry(xg.grad.numpy())
                if tr and name in C.SAME_ORDER:
                    # the gradient in the input's memory order: the vectorised body runs
                    xg.grad = None
                    fn(torch, F, xg).backward(tensor(C.same_order_grad(a), True))
                    out["backward_same_order"][f"{name}|{key}"] = entry(xg.grad.numpy())
    for name, fn in C.DIM.items():
        for j, shape in enumerate(C.DIM_SHAPES):
            x = torch.from_numpy(C.dim_input(shape, 50 + j))
            for d in range(len(shape)):
                out["dim"][f"{name}|{shape}|{d}"] = entry(fn(torch, x, d).numpy())
    for name, fn in C.DIM_BACKWARD.items():
        for j, shape in enumerate(C.DIM_SHAPES):
            x, g = torch.from_numpy(C.dim_input(shape, 50 + j)), torch.from_numpy(C.dim_grad(shape, 50 + j))
            for d in range(len(shape)):
                out["dim_backward"][f"{name}|{shape}|{d}"] = entry(fn(torch, x, d, g).numpy())
    for shape in C.LAYER_NORM_SHAPES:
        for affine in (True, False):
            for i, t in enumerate(C.layer_norm(torch, torch.from_numpy, shape, affine)):
                out["layer_norm"][f"{shape}|{affine}|{i}"] = entry(t.numpy())
    for name, fn in C.SUMS.items():
        for j, shape in enumerate(C.SUM_SHAPES):
            out["sums"][f"{name}|{shape}"] = entry(fn(torch, torch.from_numpy, C.dim_input(shape, 90 + j)).numpy())
    path = ROOT / "tests" / "data" / ("float_bits.json" if capability == "AVX512" else "float_bits_avx2.json")
    path.write_text(json.dumps(out) + "\n")
    print(f"-> {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
