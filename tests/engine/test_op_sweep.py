"""The sweep: every declared op against PyTorch, gradients against finite differences.

Samples: tests/engine/op_samples.py (one entry per op of the engine's REGISTRY).
Golden data: tests/data/op_sweep.json, recorded from PyTorch 2.13 by
scripts/record_op_sweep.py. For each sample:
  - the output's values, dtype, shape and grad_fn name equal PyTorch's;
  - the gradients of sum(out * v) equal PyTorch's and float64 central finite differences;
  - second derivatives equal finite differences of the first, where PyTorch's
    gradgradcheck passes;
  - create_graph=True gives the same gradients, requiring grad where PyTorch's do, with
    PyTorch's grad_fn and next_functions (the graph of the backward formulas);
  - the method, torch.* function and in-place variants agree.
Known gaps are listed, with reasons, in op_samples.GAPS (strict xfails); SWEEP_NO_GAPS=1
runs them as ordinary tests.
"""
import importlib.util
import json
import os
from pathlib import Path

import numpy as np
import pytest

from gradrepl.engine import api
from gradrepl.engine.backward import grad as autograd_grad
from gradrepl.engine.functions import enable_grad, no_grad
from gradrepl.engine.ops import REGISTRY
from gradrepl.engine.tensor import Tensor

def _load_samples():
    spec = importlib.util.spec_from_file_location("op_samples", Path(__file__).with_name("op_samples.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


op_samples = _load_samples()
SAMPLES, cotangent, sample_ids = op_samples.SAMPLES, op_samples.cotangent, op_samples.sample_ids

GOLDEN = json.loads((Path(__file__).resolve().parent.parent / "data" / "op_sweep.json").read_text())["samples"]
IDS = sample_ids()
EPS = 1e-6


class _Namespace:
    """api.TORCH (nested dicts) with attribute access: the `torch` the samples call."""

    def __init__(self, entries):
        self._entries = entries

    def __getattr__(self, name):
        value = self._entries[name]
        return _Namespace(value) if isinstance(value, dict) else value


TORCH = _Namespace(api.TORCH)


def missing_samples(registry, samples):
    """Declared ops with neither samples nor a stated reason, and samples of undeclared ops."""
    missing = sorted(name for name in registry if not samples.get(name))
    unknown = sorted(name for name in samples if name not in registry)
    return missing, unknown


def test_every_declared_op_has_samples_or_a_reason():
    missing, unknown = missing_samples(REGISTRY, SAMPLES)
    assert missing == [], f"ops declared without samples (add them to tests/engine/op_samples.py): {missing}"
    assert unknown == [], f"samples for ops that are not declared: {unknown}"


def test_an_op_declared_without_samples_is_reported():
    registry = dict(REGISTRY, atan3=object())
    assert missing_samples(registry, SAMPLES) == (["atan3"], [])
    assert missing_samples(registry, dict(SAMPLES, atan3="")) == (["atan3"], [])
    assert missing_samples(registry, dict(SAMPLES, atan3="needs a complex dtype")) == ([], [])


def test_known_gaps_name_declared_ops():
    for check, gaps in op_samples.GAPS.items():
        assert {key.split(":")[0] for key in gaps} <= set(REGISTRY), check
        assert all(reason for reason in gaps.values())


def test_golden_data_covers_every_sample():
    assert sorted(GOLDEN) == sorted(sid for sid, _, _ in IDS), "run scripts/record_op_sweep.py"


def _make(arg, values=None):
    t = api.TORCH["tensor"](arg.nested() if values is None else values, dtype=api.TORCH[arg.dtype])
    if arg.grad:
        t.requires_grad_(True)
    return t


def _inputs(sample, override=None):
    override = override or {}
    return [_make(a, override.get(k)) for k, a in enumerate(sample.inputs)]


def _close(ours, theirs, dtype="float64"):
    ours = np.asarray(ours, dtype=float)
    theirs = np.asarray(theirs, dtype=float)
    rtol = {"float64": 1e-9, "float32": 1e-6, "float16": 1e-3, "bfloat16": 1e-2}.get(dtype, 0)
    return ours.shape == theirs.shape and np.allclose(ours, theirs, rtol=rtol, atol=rtol * 1e-3, equal_nan=True)


def _loss(out, v_requires_grad=False):
    v = api.TORCH["tensor"](cotangent(tuple(out.shape)), dtype=out.dtype, requires_grad=v_requires_grad)
    return (out * v).sum()


def _grad_inputs(sample, inputs):
    return [t for a, t in zip(sample.inputs, inputs) if a.grad]


PARAMS = [pytest.param(sid, sample, id=sid) for sid, _op, sample in IDS]


def _with_gaps(params, check):
    """params, the known gaps of `check` (op_samples.GAPS) marked xfail with their reason."""
    gaps = {} if os.environ.get("SWEEP_NO_GAPS") else op_samples.GAPS.get(check, {})
    out = []
    for p in params:
        sid = p.values[0]
        key = sid if sid in gaps else sid.split(":")[0]
        marks = [pytest.mark.xfail(strict=True, reason=gaps[key])] if key in gaps else []
        out.append(pytest.param(*p.values, id=p.id, marks=marks))
    return out


@pytest.mark.parametrize("sid,sample", _with_gaps(PARAMS, "forward"))
def test_forward_matches_pytorch(sid, sample):
    gold = GOLDEN[sid]
    if "error" in gold:
        with pytest.raises(Exception) as info:
            sample.run(TORCH, *_inputs(sample))
        assert f"{type(info.value).__name__}: {info.value}".startswith(gold["error"])
        return
    out = sample.run(TORCH, *_inputs(sample))
    if "value" in gold:
        assert type(out) is not Tensor and out == gold["value"]
        return
    assert type(out) is Tensor
    assert out.dtype.name == gold["dtype"]
    assert list(out.shape) == gold["shape"]
    assert _close(out.tolist(), gold["values"], gold["dtype"]), (out.tolist(), gold["values"])
    name = None if out.grad_fn is None else out.grad_fn.name()
    assert name == gold["grad_fn"] or (name or "").endswith("::" + str(gold["grad_fn"]))
    assert out.requires_grad == gold["requires_grad"]


@pytest.mark.parametrize("sid,sample", _with_gaps([p for p in PARAMS if "grads" in GOLDEN[p.values[0]]
                                                   or "grad_error" in GOLDEN[p.values[0]]], "gradients"))
def test_gradients_match_pytorch_and_finite_differences(sid, sample):
    gold = GOLDEN[sid]
    inputs = _inputs(sample)
    wrt = _grad_inputs(sample, inputs)
    out = sample.run(TORCH, *inputs)
    if "grad_error" in gold:
        with pytest.raises(RuntimeError) as info:
            autograd_grad(_loss(out), wrt, allow_unused=True)
        assert f"{type(info.value).__name__}: {info.value}".startswith(gold["grad_error"])   # or a subclass
        return
    grads = autograd_grad(_loss(out), wrt, allow_unused=True)
    dtype = wrt[0].dtype.name
    for g, want in zip(grads, gold["grads"]):
        assert (g is None) == (want is None)
        if g is not None:
            assert _close(g.tolist(), want, dtype), (g.tolist(), want)
    if dtype != "float64" or out.dtype.name != "float64":
        return   # finite differences need float64 inputs and outputs
    numerical = _finite_differences(sample, lambda ins: _loss(sample.run(TORCH, *ins)).item())
    for g, num in zip(grads, numerical):
        got = np.zeros_like(num) if g is None else np.asarray(g.tolist())
        np.testing.assert_allclose(got, num, rtol=1e-5, atol=1e-6)


def _finite_differences(sample, scalar_of):
    """d scalar_of(inputs) / d input, by central differences, for each float64 input requiring grad."""
    base = {k: np.asarray(a.nested(), dtype=float) for k, a in enumerate(sample.inputs) if a.grad}
    out = []
    for k, arr in base.items():
        num = np.zeros(arr.shape)
        for i in np.ndindex(arr.shape):
            vals = []
            for step in (EPS, -EPS):
                moved = arr.copy()
                moved[i] += step
                with no_grad():
                    vals.append(scalar_of(_inputs(sample, {k: moved.tolist()})))
            num[i] = (vals[0] - vals[1]) / (2 * EPS)
        out.append(num)
    return out


def _second_order_scalar(sample, inputs, create_graph):
    """L2 = sum_i sum(grad_i * w_i) where grad_i are the first derivatives of sum(out * v)."""
    wrt = _grad_inputs(sample, inputs)
    grads = autograd_grad(_loss(sample.run(TORCH, *inputs)), wrt, allow_unused=True, create_graph=create_graph)
    total = None
    for t, g in zip(wrt, grads):
        if g is None:
            continue
        w = api.TORCH["tensor"](cotangent(tuple(t.shape)), dtype=t.dtype) * 0.5 + 0.25
        term = (g * w).sum()
        total = term if total is None else total + term
    return wrt, total


@pytest.mark.parametrize("sid,sample", _with_gaps([p for p in PARAMS if GOLDEN[p.values[0]].get("gradgrad")],
                                                  "second_order"))
def test_second_derivatives_match_finite_differences(sid, sample):
    inputs = _inputs(sample)
    wrt, total = _second_order_scalar(sample, inputs, create_graph=True)
    if total is None or not total.requires_grad:
        analytic = [np.zeros(t.shape) for t in wrt]   # the first derivatives are constant
    else:
        analytic = [np.zeros(t.shape) if h is None else np.asarray(h.tolist())
                    for t, h in zip(wrt, autograd_grad(total, wrt, allow_unused=True))]

    def first_order(ins):
        with_grad = [t.detach().requires_grad_(True) if a.grad else t for a, t in zip(sample.inputs, ins)]
        with enable_grad():
            _, value = _second_order_scalar(sample, with_grad, create_graph=False)
        return 0.0 if value is None else value.item()

    numerical = _finite_differences(sample, first_order)
    for got, num in zip(analytic, numerical):
        np.testing.assert_allclose(got, num, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("sid,sample", _with_gaps([p for p in PARAMS if "cg_requires_grad" in GOLDEN[p.values[0]]],
                                                  "create_graph"))
def test_create_graph_gives_the_same_gradients_that_require_grad(sid, sample):
    gold = GOLDEN[sid]
    inputs = _inputs(sample)
    wrt = _grad_inputs(sample, inputs)
    plain = autograd_grad(_loss(sample.run(TORCH, *inputs)), wrt, allow_unused=True)
    graphed = autograd_grad(_loss(sample.run(TORCH, *inputs)), wrt, allow_unused=True, create_graph=True)
    for p, g, want in zip(plain, graphed, gold["cg_requires_grad"]):
        assert (p is None) == (g is None) == (want is None)
        if g is not None:
            assert g.tolist() == p.tolist() or _close(g.tolist(), p.tolist(), g.dtype.name)
            assert g.requires_grad == want
    # with v a leaf that requires grad, a gradient that stays linear in v must stay attached to it
    attached = autograd_grad(_loss(sample.run(TORCH, *inputs), v_requires_grad=True), wrt, allow_unused=True,
                             create_graph=True)
    for p, g, want in zip(plain, attached, gold["cgv_requires_grad"]):
        if g is not None:
            assert g.tolist() == p.tolist() or _close(g.tolist(), p.tolist(), g.dtype.name)
            assert g.requires_grad == want


def _node_name(fn):
    return None if fn is None else fn.name().split("::")[-1]


@pytest.mark.parametrize("sid,sample", _with_gaps([p for p in PARAMS if "cg_next" in GOLDEN[p.values[0]]], "cg_graph"))
def test_create_graph_gradients_have_pytorchs_graph(sid, sample):
    """Under create_graph=True each gradient's grad_fn (the node of PyTorch's backward formula:
    TanhBackwardBackward0, MseLossBackwardBackward0, ...) and its next_functions are PyTorch's."""
    gold = GOLDEN[sid]
    inputs = _inputs(sample)
    wrt = _grad_inputs(sample, inputs)
    grads = autograd_grad(_loss(sample.run(TORCH, *inputs)), wrt, allow_unused=True, create_graph=True)
    names = [None if g is None else _node_name(g.grad_fn) for g in grads]
    below = [None if g is None or g.grad_fn is None else [_node_name(f) for f, _ in g.grad_fn.next_functions]
             for g in grads]
    assert (names, below) == (gold["cg_grad_fn"], gold["cg_next"])


def _variant_params():
    out = []
    for sid, op, sample in IDS:
        if sample.call is None and "error" not in GOLDEN[sid]:
            out.append(pytest.param(sid, op, sample, id=sid))
    gaps = {} if os.environ.get("SWEEP_NO_GAPS") else op_samples.GAPS.get("variants", {})
    return [pytest.param(*p.values, id=p.id, marks=[pytest.mark.xfail(strict=True, reason=gaps[p.values[1]])])
            if p.values[1] in gaps else p for p in out]


@pytest.mark.parametrize("sid,op,sample", _variant_params())
def test_method_function_and_inplace_variants_agree(sid, op, sample):
    decl = REGISTRY[op]
    inputs = _inputs(sample)
    want = sample.run(TORCH, *inputs)
    if type(want) is not Tensor:
        return
    if op in decl.functions:
        got = api.TORCH[op](*inputs, *sample.args, **sample.kwargs)
        assert got.tolist() == want.tolist() and got.dtype is want.dtype
    if decl.inplace is not None and inputs[0].dtype.is_floating_point and want.shape == inputs[0].shape:
        y = inputs[0] * 1     # a non-leaf: in-place on it is allowed and recorded
        getattr(y, op + "_")(*inputs[1:], *sample.args, **sample.kwargs)
        assert y.tolist() == want.tolist()
        if want.requires_grad and "grad_error" not in GOLDEN[sid]:   # backward itself fails in PyTorch
            wrt = _grad_inputs(sample, inputs)
            expect = autograd_grad(_loss(want), wrt, allow_unused=True)
            got = autograd_grad(_loss(y), wrt, allow_unused=True)
            for e, g in zip(expect, got):
                assert (e is None) == (g is None)
                if g is not None:
                    assert _close(g.tolist(), e.tolist(), g.dtype.name)

