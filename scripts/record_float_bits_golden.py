"""Record PyTorch's float32 bits for the element-wise kernels and dim ops gradrepl computes as
PyTorch's CPU kernels do (engine/kernels.py, ops/*): tests/engine/test_float_bits.py
regenerates the inputs (tests/engine/float_bits_cases.py) and compares SHA-256 digests of
the outputs, and the values themselves for the small sizes. Writes tests/data/float_bits.json
(PyTorch's AVX512 kernels), or with --avx2 tests/data/float_bits_avx2.json (its AVX2 ones);
the file notes the capability it was recorded with (engine/cpu.py).

Run where torch 2.13.0 is installed, on a machine whose CPU capability is the one recorded
(ATEN_CPU_CAPABILITY=avx2 makes an AVX512 machine run the AVX2 kernels), with the thread
count it records (results above 32768 elements depend on it):
    /work/torchvenv/bin/python scripts/record_float_bits_golden.py [--avx2]
"""
import hashlib
import importlib.util
import json
import pathlib
import sys

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("float_bits_cases", ROOT / "tests" / "engine" / "float_bits_cases.py")
C = importlib.util.module_from_spec(spec)
spec.loader.exec_module(C)


def canonical(a):
    """float32 values in C order, every NaN as 0x7fc00000 (a NaN's sign and payload are not
    what issue 14 is about: Python shows them all as nan)."""
    a = np.array(a, np.float32, order="C")
    a[np.isnan(a)] = np.nan
    return np.abs(a, where=np.isnan(a), out=a)


def entry(out):
    out = canonical(out)
    e = {"sha256": hashlib.sha256(out.tobytes()).hexdigest(), "shape": list(out.shape)}
    if out.size <= 40:
        e["bits"] = out.view(np.uint32).ravel().tolist()
    return e


def tensor(a, transposed):
    t = torch.from_numpy(np.ascontiguousarray(a))
    return t.t() if transposed else t


def main(capability):
    assert torch.backends.cpu.get_cpu_capability() == capability.upper(), f"record where PyTorch runs {capability}"
    F = torch.nn.functional
    out = {"torch": torch.__version__, "capability": capability, "threads": torch.get_num_threads(), "unary": {},
           "backward": {}, "backward_same_order": {}, "dim": {}}
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
    path = ROOT / "tests" / "data" / ("float_bits.json" if capability == "avx512" else f"float_bits_{capability}.json")
    path.write_text(json.dumps(out) + "\n")
    print(f"-> {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main("avx2" if "--avx2" in sys.argv[1:] else "avx512")
