"""Record what real PyTorch does on every sample of tests/engine/op_samples.py.

For each sample: the output (dtype, shape, values, grad_fn name, requires_grad), the
gradients of sum(out * v) for a fixed v (or the error backward raises), whether those
gradients require grad under create_graph=True (also when v itself requires grad) and
their grad_fn names (and the names of those nodes' next_functions), and whether
torch.autograd.gradgradcheck passes (second order) on the float64 inputs. Writes
tests/data/op_sweep.json, which tests/engine/test_op_sweep.py compares gradrepl with.

Usage (an interpreter with torch 2.13 installed, e.g. /work/torchvenv/bin/python):
    python scripts/record_op_sweep.py
"""
import importlib.util
import json
import sys
import warnings
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "op_sweep.json"


def load_samples():
    spec = importlib.util.spec_from_file_location("op_samples", ROOT / "tests" / "engine" / "op_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make(arg):
    t = torch.tensor(arg.nested(), dtype=getattr(torch, arg.dtype))
    if arg.grad:
        t.requires_grad_(True)
    return t


def error_text(e):
    msg = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {msg}"


def record_sample(samples, sample):
    inputs = [make(a) for a in sample.inputs]
    rec = {}
    try:
        out = sample.run(torch, *inputs)
    except Exception as e:  # noqa: BLE001 - the error is the record
        rec["error"] = error_text(e)
        return rec
    if not isinstance(out, torch.Tensor):
        rec["value"] = out
        return rec
    rec.update(dtype=str(out.dtype).replace("torch.", ""), shape=list(out.shape), values=out.tolist(),
               grad_fn=None if out.grad_fn is None else type(out.grad_fn).__name__,
               requires_grad=out.requires_grad)
    wrt = [t for t in inputs if t.requires_grad]
    if not out.requires_grad or not wrt:
        return rec
    v = torch.tensor(samples.cotangent(tuple(out.shape)), dtype=out.dtype)
    try:
        grads = torch.autograd.grad((out * v).sum(), wrt, allow_unused=True)
        rec["grads"] = [None if g is None else g.tolist() for g in grads]
    except Exception as e:  # noqa: BLE001
        rec["grad_error"] = error_text(e)
        return rec
    out = sample.run(torch, *inputs)
    cg = torch.autograd.grad((out * v).sum(), wrt, allow_unused=True, create_graph=True)
    rec["cg_requires_grad"] = [None if g is None else g.requires_grad for g in cg]
    rec["cg_grad_fn"] = [None if g is None or g.grad_fn is None else type(g.grad_fn).__name__ for g in cg]
    # the gradient's graph one level down: the names of its grad_fn's next_functions
    rec["cg_next"] = [None if g is None or g.grad_fn is None else
                      [None if f is None else type(f).__name__ for f, _ in g.grad_fn.next_functions] for g in cg]
    # the same with v a leaf that requires grad: every gradient linear in v must stay attached
    v.requires_grad_(True)
    out = sample.run(torch, *inputs)
    cgv = torch.autograd.grad((out * v).sum(), wrt, allow_unused=True, create_graph=True)
    rec["cgv_requires_grad"] = [None if g is None else g.requires_grad for g in cgv]
    if all(t.dtype == torch.float64 for t in wrt):
        def fn(*leaves):
            it = iter(leaves)
            return sample.run(torch, *[next(it) if t.requires_grad else t for t in inputs])
        try:
            rec["gradgrad"] = bool(torch.autograd.gradgradcheck(fn, tuple(wrt), raise_exception=False))
        except Exception as e:  # noqa: BLE001 - PyTorch has no second derivative here
            rec["gradgrad"] = False
            rec["gradgrad_error"] = error_text(e)
    return rec


def main():
    warnings.simplefilter("ignore")
    samples = load_samples()
    golden = {"torch": torch.__version__, "samples": {}}
    for sid, _op, sample in samples.sample_ids():
        golden["samples"][sid] = record_sample(samples, sample)
    OUT.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(golden['samples'])} samples to {OUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
