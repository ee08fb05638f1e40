"""Exercise checks: compare the learner's session STATE with what the lesson expects.

Never the text typed: a correct answer written differently passes. A check is a
TOML table per variable name (see lessons/README.md):

    atol = 1e-4                      # optional defaults for every value below
    [x]
    value = [1.0, 2.0]               # tensor (or Python number) values, with tolerance
    grad = [2.0, 4.0]                # x.grad values, or "None"
    requires_grad = true
    is_leaf = true
    grad_fn = "MulBackward0"         # grad_fn's class name, or "None" (or a list of accepted names)
    shape = [2]
    dtype = "torch.float32"
    backward_runs = 2                # backward passes that reached the tensor bound to the name
                                     # when the attempt started (the lesson built it)

Failure messages never show an expected value or gradient (a learner who was asked
to derive it could paste it); they show what the learner has, and name the expected
shape, flag or node. `Failure.expected` keeps the expected value for lesson authors
(`gradrepl lesson --check`).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from gradrepl.messages import msg

NONE = "None"
_TENSOR_KEYS = {"value", "grad", "requires_grad", "is_leaf", "grad_fn", "shape", "dtype", "atol", "rtol",
                "backward_runs"}
_DEFAULT_ATOL = 1e-4
_DEFAULT_RTOL = 1e-4


@dataclass(frozen=True)
class VarCheck:
    name: str
    expect: tuple[tuple[str, Any], ...]   # (key, expected) in the order written
    atol: float
    rtol: float


@dataclass(frozen=True)
class StateCheck:
    variables: tuple[VarCheck, ...]


@dataclass(frozen=True)
class Failure:
    """One unmet expectation, worded in both languages."""

    en: str
    zh: str
    expected: str = ""   # for lesson authors only: what the check wanted

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def for_author(self) -> str:
        return f"{self.en} (expected {self.expected})" if self.expected else self.en


@dataclass(frozen=True)
class CheckResult:
    failures: tuple[Failure, ...]

    @property
    def passed(self) -> bool:
        return not self.failures


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} must be a number")
    return float(value)


def _rectangular_numbers(value: Any) -> bool:
    def numbers(v: Any) -> bool:
        if isinstance(v, list):
            return all(numbers(item) for item in v)
        return isinstance(v, int | float)  # bool is an int: masks from comparisons check too

    if not numbers(value):
        return False
    try:
        np.asarray(value, dtype=np.float64)
    except ValueError:  # ragged: [[1, 2], [3]]
        return False
    return True


def parse_check(table: dict) -> StateCheck:
    """Validate a check table (from TOML); ValueError says what is wrong."""
    atol = _number(table.get("atol", _DEFAULT_ATOL), "atol")
    rtol = _number(table.get("rtol", _DEFAULT_RTOL), "rtol")
    variables = []
    for name, spec in table.items():
        if name in ("atol", "rtol"):
            continue
        if not isinstance(spec, dict):
            raise ValueError(f"'{name}' must be a table [{name}] of expectations")
        unknown = set(spec) - _TENSOR_KEYS
        if unknown:
            raise ValueError(f"[{name}] has unknown keys {sorted(unknown)}; known: {sorted(_TENSOR_KEYS)}")
        for key in ("value", "grad"):
            if key in spec and spec[key] != NONE and not _rectangular_numbers(spec[key]):
                raise ValueError(f"[{name}] {key} must be a number, a rectangular (nested) list of numbers "
                                 f"or \"None\"")
        for key in ("requires_grad", "is_leaf"):
            if key in spec and not isinstance(spec[key], bool):
                raise ValueError(f"[{name}] {key} must be true or false")
        if "dtype" in spec and not isinstance(spec["dtype"], str):
            raise ValueError(f"[{name}] dtype must be a string")
        if "grad_fn" in spec and not (isinstance(spec["grad_fn"], str) or (
                isinstance(spec["grad_fn"], list) and spec["grad_fn"]
                and all(isinstance(n, str) for n in spec["grad_fn"]))):
            raise ValueError(f"[{name}] grad_fn must be a name or a list of accepted names")
        runs = spec.get("backward_runs", 0)
        if type(runs) is not int or runs < 0:
            raise ValueError(f"[{name}] backward_runs must be a count (0, 1, 2, ...)")
        shape = spec.get("shape", [])
        if not isinstance(shape, list) or any(type(n) is not int or n < 0 for n in shape):
            raise ValueError(f"[{name}] shape must be a list of sizes")
        expect = tuple((k, v) for k, v in spec.items() if k not in ("atol", "rtol"))
        if not expect:
            raise ValueError(f"[{name}] expects nothing")
        variables.append(VarCheck(name, expect,
                                  _number(spec.get("atol", atol), "atol"),
                                  _number(spec.get("rtol", rtol), "rtol")))
    if not variables:
        raise ValueError("a check names at least one variable")
    return StateCheck(tuple(variables))


# ---------------------------------------------------------------------------
# what the checker sees of a value

@dataclass(frozen=True)
class Observed:
    """The checkable state of one session value (a snapshot, no engine object).

    kind is "tensor", "number", "none" or "other"; the tensor fields are only
    meaningful for tensors (grad is None when .grad is None).
    """

    kind: str
    values: Any = None   # nested lists of numbers, or a float
    grad: Any = None
    requires_grad: bool = False
    is_leaf: bool = True
    grad_fn: str = NONE
    shape: tuple[int, ...] = ()
    dtype: str = ""


def observe(value: Any) -> Observed:
    """Snapshot an engine tensor or Python number for checking."""
    from gradrepl.engine import api

    if api.is_tensor(value):
        grad = api.peek_grad(value)
        node = value.grad_fn
        return Observed("tensor", value.tolist(), None if grad is None else grad.tolist(),
                        bool(value.requires_grad), bool(value.is_leaf),
                        NONE if node is None else node.name(), tuple(value.shape), str(value.dtype))
    if value is None:
        return Observed("none")
    if isinstance(value, int | float | bool):
        return Observed("number", float(value))
    return Observed("other")


def _show(array: np.ndarray) -> str:
    return np.array2string(array, precision=4, separator=", ", threshold=20)


def _failure(key: str, expected: str = "", **fields) -> Failure:
    """A Failure worded by the catalogue's check.KEY in both languages."""
    return Failure(msg("check." + key, "en", **fields), msg("check." + key, "zh", **fields), expected)


def _compare_values(label: str, actual: Any, expected: Any, atol: float, rtol: float,
                    shape_given: bool = False) -> Failure | None:
    """actual: numbers (nested lists or a float) or None. A plain expected number accepts any
    one-element tensor (tensor([14.]) is 14 too) unless the check also names a shape."""
    if expected == NONE:
        if actual is None:
            return None
        return _failure("should_be_none", NONE, label=label)
    want = np.asarray(expected, dtype=np.float64)
    if actual is None:
        return _failure("is_none", _show(want), label=label)
    got = np.asarray(actual, dtype=np.float64)
    if want.ndim == 0 and got.size == 1 and not shape_given:
        got = got.reshape(())
    if got.shape != want.shape:
        return _failure("shape", _show(want), label=label, got=str(list(got.shape)), want=str(list(want.shape)))
    if not np.allclose(got, want, atol=atol, rtol=rtol, equal_nan=True):
        return _failure("value", _show(want), label=label, got=_show(got))
    return None


def _mismatch(label: str, actual: Any, expected: Any, any_of: bool = False) -> Failure | None:
    if any_of and isinstance(expected, list):   # grad_fn: any of these names
        if actual in expected:
            return None
        return Failure(*(msg("check.mismatch", lang, label=label, actual=actual,
                             wanted=msg("check.or", lang).join(expected)) for lang in ("en", "zh")))
    if actual == expected:
        return None
    return _failure("mismatch", label=label, actual=actual, wanted=expected)


def _runs_failure(name: str, runs: int | None, expected: int) -> Failure | None:
    if runs is None:
        return _failure("reassigned", name=name)
    if runs == expected:
        return None
    def times(n, lang):
        return msg({0: "check.not_at_all", 1: "check.once", 2: "check.twice"}.get(n, "check.times"), lang, n=n)

    def worded(lang):
        reached = (msg("check.never_reached", lang, name=name) if runs == 0 else
                   msg("check.reached", lang, name=name, times=times(runs, lang)))
        return msg("check.runs", lang, reached=reached, want=times(expected, lang))
    return Failure(worded("en"), worded("zh"))


def _check_var(var: VarCheck, seen: Observed | None, runs: int | None = None) -> list[Failure]:
    name = var.name
    if seen is None:
        return [_failure("no_variable", name=name)]
    if seen.kind != "tensor":
        wants_tensor = any(key != "value" for key, _ in var.expect)
        if wants_tensor or seen.kind == "other":
            return [_failure("not_tensor", name=name)]
        actual = seen.values if seen.kind == "number" else None
        failure = _compare_values(name, actual, dict(var.expect)["value"], var.atol, var.rtol)
        return [failure] if failure else []
    failures = []
    expect = dict(var.expect)
    shape_failed = "shape" in expect and list(seen.shape) != expect["shape"]
    for key, expected in var.expect:
        if key == "value":
            failure = _compare_values(name, seen.values, expected, var.atol, var.rtol, "shape" in expect)
            if shape_failed and failure is not None and "shape" in failure.en:
                failure = None   # the shape line below says it once
        elif key == "grad":
            failure = _compare_values(f"{name}.grad", seen.grad, expected, var.atol, var.rtol)
        elif key == "shape":
            failure = _mismatch(f"{name}.shape", list(seen.shape), expected)
        elif key == "backward_runs":
            failure = _runs_failure(name, runs, expected)
        else:  # requires_grad, is_leaf, grad_fn, dtype
            failure = _mismatch(f"{name}.{key}", getattr(seen, key), expected, key == "grad_fn")
        if failure is not None:
            failures.append(failure)
    return failures


def check_observed(check: StateCheck, seen: dict[str, Observed],
                   runs: dict[str, int | None] | None = None) -> CheckResult:
    """Every expectation of `check` against snapshots of the named values (and the counts of
    backward passes a Watch saw, by name; None: the name is bound to another object now)."""
    failures: list[Failure] = []
    for var in check.variables:
        failures.extend(_check_var(var, seen.get(var.name), (runs or {}).get(var.name)))
    return CheckResult(tuple(failures))


class Watch:
    """Counts the backward passes that reach the tensors a check names with `backward_runs`.

    Made when an attempt starts, on the tensors the lesson's steps built: a gradient hook
    on each (host side, invisible to user code) counts, and the check reads the counts.
    This is what tells "backward twice through one graph" from two freshly built graphs,
    which leave the same values behind. `close()` removes the hooks.
    """

    def __init__(self, check: StateCheck, namespace: dict):
        from gradrepl.engine import api

        self.watched: dict[str, tuple[object, list[int]]] = {}
        self.handles = []
        self.paused = False
        for var in check.variables:
            if "backward_runs" not in dict(var.expect):
                continue
            value = namespace.get(var.name)
            if not api.is_tensor(value) or not value.requires_grad:
                continue   # the check then reports the name as not the lesson's tensor
            count = [0]

            def hook(grad, count=count):
                if not self.paused:
                    count[0] += 1

            self.handles.append(value.register_hook(hook))
            self.watched[var.name] = (value, count)

    @contextmanager
    def pause(self):
        """gradrepl's own tools (:explain, :jacobian) replay backward passes: they do not count."""
        paused, self.paused = self.paused, True
        try:
            yield
        finally:
            self.paused = paused

    def runs(self, namespace: dict) -> dict[str, int | None]:
        return {name: count[0] if namespace.get(name) is value else None
                for name, (value, count) in self.watched.items()}

    def close(self) -> None:
        for handle in self.handles:
            handle.remove()
        self.handles = []


def check_state(check: StateCheck, namespace: dict, watch: Watch | None = None) -> CheckResult:
    """Every expectation of `check` against the session's variables."""
    seen = {var.name: observe(namespace[var.name]) for var in check.variables if var.name in namespace}
    return check_observed(check, seen, watch.runs(namespace) if watch is not None else None)
