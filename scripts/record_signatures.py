"""Record PyTorch 2.13's Python argument signatures of the torch.* functions (torch.linalg.NAME and
torch.special.NAME as linalg_NAME / special_NAME, the names PyTorch's parser prints) and Tensor
methods gradrepl offers, for the messages of a call with arguments of the wrong types
(gradrepl/engine/signatures.py).

PyTorch's own parser is asked: each name is called with an object of no known type. An
overloaded name answers "NAME() received an invalid combination of arguments ... expected
one of:" followed by its signatures, which are kept as printed. A name with one signature
answers "NAME(): argument 'P' (position N) must be T, not ..."; the next position is then
probed with a valid value in place of that one, and so on, which gives its positional
parameters in order. The int lists declared without a size (`int[] dims`, where `int[2]
kernel_size` takes a single int too) are listed under "unsized" (PyTorch's operator schemas).
A torch.nn.functional name is called with an odd object at position 0
or 1 (tensors elsewhere): the message there, which names the C++ function it reaches, is kept
as a template. Writes gradrepl/engine/signatures.json.

    /work/venv/bin/python scripts/record_signatures.py [--torch PYTHON]
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "gradrepl" / "engine" / "signatures.json"

_TORCH_SIDE = r'''
import json, re, sys, warnings
import torch
warnings.simplefilter("ignore")
names = json.load(sys.stdin)


class Odd:
    pass


x = torch.ones(2, 2)
VALID = {"Tensor": x, "int": 0, "float": 0.5, "Number": 1, "bool": False, "tuple of ints": (2, 2),
         "tuple of floats": (0.5,), "str": "mean", "torch.dtype": torch.float32, "tuple of Tensors": (x, x)}
ARG = re.compile(r"^\w+\(\): argument '(\w+)' \(position (\d+)\) must be (.+), not Odd$")


def signatures(text):
    """The signatures an "invalid combination of arguments" message lists, or None."""
    if "received an invalid combination of arguments" not in text:
        return None
    if "but expected one of:" in text:
        return [line[3:] for line in text.split("\n") if line.startswith(" * (")]
    return [text.split("but expected ", 1)[1].split("\n")[0]]


def attempt(call, *args):
    """The first line of the TypeError the call raises ("" when it raises none, None otherwise)."""
    try:
        call(*args)
    except TypeError as e:
        return str(e)
    except Exception:
        return None
    return ""


def probe(call):
    for args in ((), (Odd(),)):
        text = attempt(call, *args)
        if text and signatures(text):
            return {"overloads": signatures(text)}
    params = []
    while text:
        if signatures(text):
            return {"overloads": signatures(text)}
        m = ARG.match(text.split("\n")[0])
        if m is None or int(m.group(2)) != len(params) + 1:
            break
        params.append([m.group(1), m.group(3)])
        if m.group(3) not in VALID:
            break
        text = attempt(call, *[VALID[t] for _, t in params], Odd())
    return {"params": params} if params else None


# int lists declared without a size (int[] dims, not int[2] kernel_size): the parser refuses a
# single int there (rot90(x, 1, 0)), unless it is the one positional parameter (x.permute(1, 0))
SCHEMAS = {}
for schema in torch._C._jit_get_all_schemas():
    if schema.name.startswith("aten::"):
        SCHEMAS.setdefault(schema.name[len("aten::"):], []).append(schema)


def unsized_int_lists(aten):
    """The parameters of aten::NAME that are int lists without a size in every overload."""
    sized, unsized = set(), set()
    for schema in SCHEMAS.get(aten, ()):
        for a in schema.arguments:
            if str(a.type) in ("List[int]", "Optional[List[int]]"):
                (unsized if a.N is None else sized).add(a.name)
    return sorted(unsized - sized)


out = {"function": {}, "method": {}}
def torch_function(name):
    """torch.NAME; linalg_NAME and special_NAME are torch.linalg.NAME and torch.special.NAME."""
    for sub in ("linalg", "special"):
        if name.startswith(sub + "_"):
            return getattr(getattr(torch, sub), name[len(sub) + 1:], None)
    return getattr(torch, name, None)


for name in names["function"]:
    fn = torch_function(name)
    if callable(fn):
        found = probe(lambda *a, fn=fn: fn(*a))
        if found:
            unsized = unsized_int_lists(name)
            if unsized:
                found["unsized"] = unsized
            out["function"][name] = found
for name in names["method"]:
    fn = getattr(x, name, None)
    if callable(fn):
        found = probe(lambda *a, name=name: getattr(torch.ones(2, 2), name)(*a))
        if found:
            unsized = unsized_int_lists(name)
            if unsized:
                found["unsized"] = unsized
            out["method"][name] = found
# torch.nn.functional: a tensor where a parameter must be given, an odd object at position 0 or 1;
# the message PyTorch's parser gives (it names the C++ function and its position) kept as a template
import inspect
import torch.nn.functional as F
ONE = re.compile(r"^\w+\(\): argument '\w+' (?:\(position \d+\) )?must be (.+), not Odd$")
out["functional"] = {}
for name in names["functional"]:
    fn = getattr(F, name, None)
    if not callable(fn):
        continue
    try:
        counts = [len([p for p in inspect.signature(fn).parameters.values()
                       if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])]
    except (TypeError, ValueError):     # a builtin (F.linear): try a few argument counts
        counts = [1, 2, 3]
    found = {}
    for pos in (0, 1):
        for count in counts:
            args = [torch.ones(2, 3) for _ in range(max(count, pos + 1))]
            args[pos] = Odd()
            text = attempt(lambda *a: fn(*a), *args)
            m = ONE.match((text or "").split("\n")[0])
            if m is not None:
                found[str(pos)] = [m.group(1), text.split("\n")[0][:-len("Odd")]]
                break
    if found:
        out["functional"][name] = found
json.dump(out, sys.stdout)
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torch", default="/work/torchvenv/bin/python", help="a Python with torch 2.13")
    args = parser.parse_args()
    from gradrepl.engine import api
    from gradrepl.engine.ops import METHODS
    from gradrepl.nn import functional
    functions = [k for k, v in api.TORCH.items() if callable(v) and not isinstance(v, type)]
    for sub in ("linalg", "special"):
        functions += [f"{sub}_{k}" for k, v in api.TORCH[sub].items() if callable(v) and not isinstance(v, type)]
    names = {"function": sorted(functions),
             "method": sorted(METHODS), "functional": sorted(functional.namespace())}
    done = subprocess.run([args.torch, "-c", _TORCH_SIDE], input=json.dumps(names), capture_output=True, text=True,
                          check=True)
    table = json.loads(done.stdout)
    OUT.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(table['function'])} functions, {len(table['method'])} methods, {len(table['functional'])} "
          f"nn.functional -> {OUT.relative_to(ROOT)}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
