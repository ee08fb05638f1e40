"""Record PyTorch's float64 bits for the kernels gradrepl computes with Sleef's double
functions and the C library's (engine/_kernels.c, engine/kernels.py): tests/engine/
test_float64_bits.py regenerates the inputs (tests/engine/float64_bits_cases.py) and compares
SHA-256 digests of the outputs, and the values themselves for the small sizes.

Run where torch 2.13.0 is installed, with the thread count it records; an AVX2 machine writes
tests/data/float64_bits_avx2.json, an AVX512 one tests/data/float64_bits.json:
    /work/torchvenv/bin/python scripts/record_float64_bits_golden.py
"""
import importlib.util
import json
import pathlib

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("float64_bits_cases", ROOT / "tests" / "engine" / "float64_bits_cases.py")
C = importlib.util.module_from_spec(spec)
spec.loader.exec_module(C)
spec = importlib.util.spec_from_file_location("record_float_bits_golden", ROOT / "scripts" / "record_float_bits_golden.py")
float32_recorder = importlib.util.module_from_spec(spec)
spec.loader.exec_module(float32_recorder)
tensor = float32_recorder.tensor


def entry(out, dtype=np.float64):
    return float32_recorder.entry(out, dtype)


def main():
    capability = torch.backends.cpu.get_cpu_capability()
    assert capability in ("AVX512", "AVX2"), "record on an AVX512 or AVX2 machine"
    F = torch.nn.functional
    out = {"torch": torch.__version__, "threads": torch.get_num_threads(), "capability": capability, "unary": {},
           "backward": {}, "unary32": {}}
    for i, (name, (dom, fn)) in enumerate(C.UNARY.items()):
        for key, a, tr in C.layouts(1000 * i):
            x = tensor(dom(a) if dom is not None else a, tr)
            out["unary"][f"{name}|{key}"] = entry(fn(torch, F, x).numpy())
            if name in C.BACKWARD:
                xg = x.detach().clone().requires_grad_() if not tr else tensor(dom(a) if dom else a, tr).requires_grad_()
                y = fn(torch, F, xg)
                y.backward(torch.from_numpy(C.grad_for(a)).reshape(y.shape))
                out["backward"][f"{name}|{key}"] = entry(xg.grad.numpy())
    for i, (name, (dom, fn)) in enumerate(C.UNARY32.items()):
        for key, a, tr in C.layouts(500 * i):
            with np.errstate(all="ignore"):
                x = tensor((dom(a) if dom is not None else a).astype(np.float32), tr)
            out["unary32"][f"{name}|{key}"] = entry(fn(torch, F, x).numpy(), np.float32)
    path = ROOT / "tests" / "data" / ("float64_bits.json" if capability == "AVX512" else "float64_bits_avx2.json")
    path.write_text(json.dumps(out) + "\n")
    print(f"-> {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
