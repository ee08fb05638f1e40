"""Which documented PyTorch names gradrepl does not offer yet (issue 14's coverage sweep).

Asks a Python with torch for the public names of torch, torch.Tensor, torch.linalg,
torch.special, torch.nn.functional, torch.nn.init and torch.autograd (leaving out what
gradrepl does not aim at: sparse, quantized, complex, CUDA and other devices, fft, jit,
onnx, named tensors, internals), then runs a gradrepl program that checks each with
hasattr, and prints the names gradrepl lacks, one namespace per line.

    /work/venv/bin/python scripts/api_coverage.py [--torch PYTHON]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_TORCH_SIDE = r'''
import inspect, json, torch
import torch.nn.functional as F
spaces = {"torch": torch, "torch.Tensor": torch.Tensor, "torch.linalg": torch.linalg,
          "torch.special": torch.special, "torch.nn.functional": F, "torch.nn.init": torch.nn.init,
          "torch.autograd": torch.autograd}
OUT_OF_SCOPE = ("sparse", "quant", "complex", "cuda", "mkldnn", "fbgemm", "cudnn", "miopen", "xpu", "mps",
                "vulkan", "nested", "qint", "quint", "fft", "jit", "onnx", "storage", "conj", "imag", "real",
                "float8", "float4", "bits", "ipu", "hpu", "meta", "mtia", "xla", "lazy", "privateuse", "fake",
                "symint", "sym_", "opaque", "named", "rename", "refine_names", "align", "qscheme", "q_",
                "autocast", "dlpack", "ir_", "type_comment", "schema", "_copy")
names = {}
for space, mod in spaces.items():
    keep = []
    for n in dir(mod):
        if n.startswith("_") or n[:1].isupper() or any(s in n.lower() for s in OUT_OF_SCOPE):
            continue
        if inspect.ismodule(getattr(mod, n, None)):
            continue
        keep.append(n)
    names[space] = keep
print(json.dumps(names))
'''

_SPELLED = {"torch": "torch", "torch.Tensor": "torch.ones(2, 2)", "torch.linalg": "torch.linalg",
            "torch.special": "torch.special", "torch.nn.functional": "torch.nn.functional",
            "torch.nn.init": "torch.nn.init", "torch.autograd": "torch.autograd"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torch", default="/work/torchvenv/bin/python", help="a Python with torch installed")
    args = parser.parse_args()
    names = json.loads(subprocess.run([args.torch, "-c", _TORCH_SIDE], capture_output=True, text=True,
                                      check=True).stdout)
    lines = ["import torch", "import torch.nn.functional"]
    for space, wanted in names.items():
        lines += [f"missing = [n for n in {wanted!r} if not hasattr({_SPELLED[space]}, n)]",
                  f"print({space!r} + ': ' + str(len(missing)) + ': ' + ' '.join(missing))"]
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    try:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-m", "gradrepl", "run", f.name], capture_output=True, text=True,
                              env=env)
    finally:
        os.unlink(f.name)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
