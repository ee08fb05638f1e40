"""Record PyTorch's float32 bits for convolution (conv1d/conv2d forward, d input, d weight,
d bias) and pooling (max, avg, adaptive avg; forward and d input) on the inputs of
tests/engine/conv_bits_cases.py: tests/engine/test_conv_bits.py compares SHA-256 digests.
Writes tests/data/conv_bits.json on an AVX512 machine, tests/data/conv_bits_avx2.json on an
AVX2 one (torch.backends.cpu.get_cpu_capability(); oneDNN's kernels differ between them).

Run where torch 2.13.0 is installed, with 2 threads (oneDNN splits the weight gradient's
reduction between them):
    /work/torchvenv/bin/python scripts/record_conv_bits_golden.py
"""
import hashlib
import importlib.util
import json
import pathlib

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("conv_bits_cases", ROOT / "tests" / "engine" / "conv_bits_cases.py")
C = importlib.util.module_from_spec(spec)
spec.loader.exec_module(C)


FILES = {"AVX512": "conv_bits.json", "AVX2": "conv_bits_avx2.json"}


def entry(t):
    a = np.array(t.numpy(), np.float32, order="C")
    return {"sha256": hashlib.sha256(a.tobytes()).hexdigest(), "shape": list(a.shape)}


def main():
    capability = torch.backends.cpu.get_cpu_capability()
    assert capability in FILES, f"record on an AVX512 or AVX2 machine, not {capability}"
    out = {"torch": torch.__version__, "threads": torch.get_num_threads(), "capability": capability,
           "conv": {}, "pool": {}}
    for i, (key, name, n) in enumerate(C.cases()):
        res = C.run_conv(torch, torch.from_numpy, name, n, 100 + i)
        out["conv"][key] = [entry(t) for t in res]
    if capability == "AVX2":
        out["conv1x1"] = {key: [entry(t) for t in C.run_conv(torch, torch.from_numpy, name, n, seed)]
                          for key, name, n, seed in C.cases_1x1()}
        out["depthwise"] = {key: [entry(t) for t in C.run_conv(torch, torch.from_numpy, name, n, seed)]
                            for key, name, n, seed in C.cases_depthwise()}
        out["kernel4"] = {key: [entry(t) for t in C.run_conv(torch, torch.from_numpy, name, n, seed)]
                          for key, name, n, seed in C.cases_kernel4()}
        out["transposed"] = {key: [entry(t) for t in C.run_conv(torch, torch.from_numpy, name, n, seed)]
                             for key, name, n, seed in C.cases_transposed()}
        out["grouped"] = {key: [entry(t) for t in C.run_conv(torch, torch.from_numpy, name, n, seed)]
                          for key, name, n, seed in C.cases_grouped()}
    for i, name in enumerate(C.POOLS):
        for ties in (False, True):
            res = C.run_pool(torch, torch.from_numpy, name, 500 + i, ties)
            out["pool"][f"{name}|{ties}"] = [entry(t) for t in res]
    path = ROOT / "tests" / "data" / FILES[capability]
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}: {len(out['conv'])} convolutions, {len(out['pool'])} poolings")


if __name__ == "__main__":
    main()
