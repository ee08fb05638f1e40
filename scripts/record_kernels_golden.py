"""Record PyTorch's results for the kernels gradrepl emulates bit for bit (engine/kernels.py):
Sleef's expf (read back through log_softmax's backward, which returns exp(output) * -sum
when the gradient is -1 in one column and 0 elsewhere), log_softmax and softmax over the last
dim forward and backward (Sleef's logf on the row sums), cross_entropy forward and backward,
sigmoid and silu (vectorised body and scalar tail), and the tanh backward. Writes
tests/data/kernels.json: for each case its seeds, sizes and the SHA-256 of PyTorch's float32
output bytes (the test regenerates the inputs and compares hashes), plus explicit values for
hard inputs. Millions of inputs per kernel; the file stays small.

Run where torch 2.13.0 is installed: python scripts/record_kernels_golden.py. Where PyTorch
runs its AVX512 kernels (torch.backends.cpu.get_cpu_capability() == 'AVX512') it writes
tests/data/kernels.json, where it runs its AVX2 ones (an AVX2 machine, or
ATEN_CPU_CAPABILITY=avx2) tests/data/kernels_avx2.json, as record_float_bits_golden.py does.
The file notes the capability (engine/cpu.py).
"""
import hashlib
import json
import pathlib

import numpy as np
import torch

F = torch.nn.functional

# (low, high, count, seed): uniform float32 inputs of expf
EXP_RANGES = [(-104, 89, 2_000_000, 1), (-1, 1, 1_000_000, 2), (-20, 0, 1_000_000, 3), (-0.01, 0.01, 500_000, 4),
              (85, 100, 200_000, 5), (-110, -80, 200_000, 6)]
EXP_HARD = [0.0, -0.0, float("inf"), -float("inf"), float("nan"), 88.72283, 88.72284, -87.33654, -103.9, -104.0,
            -104.1, 100.0, 100.1, 1e-30, -1e-30, 1e-40, -1e-40, 0.34657359, -0.34657359, 0.6931472, 1.0, -1.0]
# (rows, cols, scale, seed): softmax / log_softmax over the last dim, forward and backward
ROWS = [(32, 27, 3.0, 10), (7, 5, 3.0, 11), (5, 16, 3.0, 12), (3, 17, 3.0, 13), (100, 100, 2.0, 14),
        (1000, 33, 3.0, 15), (200_000, 2, 10.0, 16), (50_000, 40, 3.0, 17), (2_000, 1000, 0.1, 18), (1, 5, 3.0, 19),
        (2, 300, 5.0, 20), (64, 1, 3.0, 21)]
# (rows, classes, seed): cross_entropy with class indices, mean reduction
CE = [(32, 27, 30), (4, 10, 31), (100, 5, 32), (300, 20, 33), (1, 3, 34), (1000, 27, 35), (17, 16, 36), (64, 3, 37)]
SIGMOID_SIZES = [1, 7, 31, 32, 33, 100, 1000, 20_000, 32_767]   # below 32768: one thread
TANH_SIZES = [7, 17, 3200, 1_000_000]


def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a, np.float32).tobytes()).hexdigest()


def uniform(lo, hi, n, seed):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(np.float32)


def normal(shape, scale, seed):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def sleef_exp(y):
    """exp(y) as Vectorized<float>::exp (Sleef_expf16_u10) computes it, for any float32 y."""
    n = y.size
    rows = -(-n // 16)
    out = np.zeros((rows, 17), np.float32)
    out[:, :16].flat[:n] = y
    g = np.zeros((rows, 17), np.float32)
    g[:, 16] = -1
    r = torch.ops.aten._log_softmax_backward_data(torch.from_numpy(g), torch.from_numpy(out), 1, torch.float32)
    return r.numpy()[:, :16].ravel()[:n]


def main():
    capability = torch.backends.cpu.get_cpu_capability().lower()
    assert capability in ("avx512", "avx2"), "record where PyTorch runs its AVX512 or AVX2 kernels"
    out = {"torch": torch.__version__, "capability": capability, "exp": [], "exp_hard": {}, "rows": [], "cross_entropy": [], "sigmoid": [],
           "tanh_backward": []}
    for lo, hi, n, seed in EXP_RANGES:
        out["exp"].append({"range": [lo, hi], "n": n, "seed": seed, "sha256": digest(sleef_exp(uniform(lo, hi, n, seed)))})
    hard = np.array(EXP_HARD, np.float32)
    out["exp_hard"] = {"inputs": hard.tolist(), "values": [repr(float(v)) for v in sleef_exp(hard)]}
    for rows, cols, scale, seed in ROWS:
        x = torch.from_numpy(normal((rows, cols), scale, seed))
        g = torch.from_numpy(normal((rows, cols), 1.0, seed + 1000))
        case = {"shape": [rows, cols], "scale": scale, "seed": seed}
        for name in ("softmax", "log_softmax"):
            xt = x.clone().requires_grad_()
            y = getattr(F, name)(xt, dim=-1)
            y.backward(g)
            case[name] = digest(y.detach().numpy())
            case[name + "_backward"] = digest(xt.grad.numpy())
        out["rows"].append(case)
    for n, c, seed in CE:
        rng = np.random.default_rng(seed)
        x = torch.from_numpy((rng.standard_normal((n, c)) * 2).astype(np.float32)).requires_grad_()
        t = torch.from_numpy(rng.integers(0, c, n))
        loss = F.cross_entropy(x, t)
        loss.backward()
        out["cross_entropy"].append({"shape": [n, c], "seed": seed, "loss": loss.item(), "grad": digest(x.grad.numpy())})
    for n in SIGMOID_SIZES:
        x = torch.from_numpy(normal((n,), 5.0, 40 + n))
        out["sigmoid"].append({"n": n, "seed": 40 + n, "sha256": digest(torch.sigmoid(x).numpy()),
                               "silu": digest(F.silu(x).numpy())})
    # 2000 tensors of 31 elements: all in the scalar tail (glibc's expf)
    xs = normal((2000, 31), 5.0, 77)
    out["sigmoid_tails"] = {"shape": [2000, 31], "seed": 77,
                            "sigmoid": digest(np.concatenate([torch.sigmoid(torch.from_numpy(r)).numpy() for r in xs])),
                            "silu": digest(np.concatenate([F.silu(torch.from_numpy(r)).numpy() for r in xs]))}
    for n in TANH_SIZES:
        # the backward kernel on its own (torch.tanh's forward is MKL's, not emulated)
        y = torch.from_numpy(uniform(-1, 1, n, 50 + n))
        g = torch.from_numpy(normal((n,), 1.0, 60 + n))
        grad = torch.ops.aten.tanh_backward(g, y)
        out["tanh_backward"].append({"n": n, "seeds": [50 + n, 60 + n], "sha256": digest(grad.numpy())})
    path = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / ("kernels.json" if capability == "avx512" else f"kernels_{capability}.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"-> {path}")


if __name__ == "__main__":
    main()
