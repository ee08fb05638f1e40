"""Differential tester: random learner-style PyTorch programs, run under real PyTorch and gradrepl.

Each program is what a learner of the three tutorials might type: tensors of a few shapes
and dtypes, with and without requires_grad; arithmetic with scalars and broadcasting;
unary ops, reductions with dim/keepdim, shape ops, indexing and index assignment;
backward (with a gradient, with retain_graph), .grad reads, hooks, detach, no_grad;
printing of values, grads, grad_fn, shapes, dtypes, item() and tolist(); and mistakes
that raise errors.  The programs run under PyTorch (one oracle process for the whole
batch, the echo semantics of scripts/record_cases.py) and under gradrepl in-process
through run_source; stdout (0x addresses masked), success and the error line are compared.

`--kind learner` draws the programs of the pages after that (LearnerGen): nn.Module subclasses and
nn.Sequential models, optimizers and schedulers, DataLoader/TensorDataset loops, losses with
reductions and weights, eval/no_grad, state_dict and parameter counts; printing of every dtype and
size (summarised, sci mode, print options); indexing (masks, fancy, ellipsis, None, negative
steps); views, in-place changes and version errors, hooks, retain_grad, accumulation; common
mistakes; and the Python around them (f-strings and str.format with specs, comprehensions,
zip/enumerate, dicts, classes, exceptions, math, random). `--kind mix` alternates the two.

Usage (from the repo, with the dev venv):
    /work/venv/bin/python scripts/difftest.py --n 300 --seed 1 [--kind learner] [--buckets] [--save DIR]
--save writes each differing program to DIR as dNNNN.py for minimising by hand; --buckets groups
the differences by their first differing line ('last digits only' when they agree to 4 digits).
Exit status 0 when every program matched, 1 otherwise.
"""
import argparse
import json
import os
import pathlib
import random
import re
import subprocess
import sys

TORCH_PY = "/work/torchvenv/bin/python"
ADDR = re.compile(r"0x[0-9a-fA-F]+")

# The oracle: scripts/record_cases.py's echo semantics, one fresh namespace per program.
ORACLE = r'''
import ast, contextlib, io, json, signal, sys, warnings
warnings.simplefilter("ignore")
import torch
def too_long(*_):
    raise TimeoutError("program ran longer than 30 s")
signal.signal(signal.SIGALRM, too_long)
for src in json.load(sys.stdin):
    signal.alarm(30)
    out = io.StringIO()
    err, line = "", 0
    ns = {"__name__": "__main__"}
    exec("import torch\nimport math", ns)
    torch.set_grad_enabled(True)
    torch.set_printoptions(profile="default", sci_mode=None)   # a program's print options end with it
    with contextlib.redirect_stdout(out):
        try:
            tree = ast.parse(src, "case.py")
        except SyntaxError as e:
            tree, err = None, f"SyntaxError: {e.msg}"
        for node in (tree.body if tree else []):
            try:
                if isinstance(node, ast.Expr):
                    val = eval(compile(ast.Expression(node.value), "case.py", "eval"), ns)
                    if val is not None:
                        print(repr(val))
                else:
                    exec(compile(ast.Module(body=[node], type_ignores=[]), "case.py", "exec"), ns)
            except Exception as e:
                msg = str(e).splitlines()[0] if str(e) else ""
                err, line = f"{type(e).__name__}: {msg}", node.lineno
                break
    signal.alarm(0)
    print(json.dumps({"out": out.getvalue(), "err": err, "line": line}), file=sys.__stdout__, flush=True)
'''


# ------------------------------------------------------------------ program generator
class Var:
    __slots__ = ("name", "shape", "dtype", "rg", "leaf")

    def __init__(self, name, shape, dtype, rg, leaf):
        self.name, self.shape, self.dtype, self.rg, self.leaf = name, shape, dtype, rg, leaf


SHAPES = [(), (3,), (4,), (2, 3), (3, 2), (2, 2), (1, 3), (3, 1), (2, 1, 3), (2, 3, 4)]
# sinh/cosh left out: PyTorch's float32 kernels (SLEEF) differ from ours in the last ulp now and then,
# which shows in printed digits (cosh(5.) prints 74.2100 there, 74.2099 here).
UNARY_ANY = ["exp", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "square", "sign", "floor", "ceil",
             "round", "atan", "expm1", "reciprocal", "rsqrt", "sqrt", "log", "log2", "log10",
             "log1p", "asin", "acos", "negative", "t", "clone", "detach", "contiguous", "float", "double",
             "long", "int", "bool", "flatten"]
POSITIVE = {"sqrt", "log", "log2", "log10", "log1p", "rsqrt"}
REDUCE = ["sum", "mean", "prod", "max", "min", "amax", "argmax", "argmin", "norm", "std", "var", "logsumexp",
          "cumsum", "softmax", "log_softmax", "all", "any"]
NEEDS_DIM = {"cumsum", "softmax", "log_softmax", "logsumexp", "amax"}
BINOPS = ["+", "-", "*", "/", "**", "@", "//", "%", ">", "<", "==", ">=", "!="]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.vars = []
        self.lines = ["import torch"]
        self.n = 0
        self.seeded = False

    # -- helpers
    def pick(self, seq):
        return self.r.choice(seq)

    def fresh(self):
        self.n += 1
        return f"{self.pick('abcxyzuvw')}{self.n}"

    def number(self, dtype):
        r = self.r.random()
        if dtype in ("int64", "bool"):
            return str(self.r.randint(-3, 5))
        if r < 0.5:
            return self.pick(["0.5", "1.0", "2.0", "-1.5", "3.0", "0.1", "-2.0", "10.0", "1e-3", "0.25", "4.0"])
        if r < 0.8:
            return str(self.r.randint(-4, 6)) + "."
        return repr(round(self.r.uniform(-5, 5), self.r.randint(1, 5)))

    def literal(self, shape, dtype):
        if not shape:
            return self.number(dtype)
        return "[" + ", ".join(self.literal(shape[1:], dtype) for _ in range(shape[0])) + "]"

    def emit(self, line):
        self.lines.append(line)

    def show(self, expr):
        """Echo or print an expression: both are how learners look at values."""
        self.emit(expr if self.r.random() < 0.6 else f"print({expr})")

    # -- creation
    def create(self):
        shape = self.pick(SHAPES)
        kind = self.r.random()
        rg = self.r.random() < 0.6
        name = self.fresh()
        dtype = "float32"
        rgs = ", requires_grad=True" if rg else ""
        shape_args = ", ".join(map(str, shape))
        if kind < 0.35:
            dt = self.r.random()
            if dt < 0.1 and not rg:
                dtype = "int64"
                src = f"torch.tensor({self.literal(shape, 'int64')})"
            elif dt < 0.2:
                dtype = "float64"
                src = f"torch.tensor({self.literal(shape, 'float32')}, dtype=torch.float64{rgs})"
            else:
                src = f"torch.tensor({self.literal(shape, 'float32')}{rgs})"
        elif kind < 0.6:
            if not self.seeded or self.r.random() < 0.3:
                self.emit(f"torch.manual_seed({self.r.randint(0, 100)})")
                self.seeded = True
            fn = self.pick(["randn", "rand", "randn"])
            src = f"torch.{fn}({shape_args or '()'}{rgs})" if shape else f"torch.{fn}((){rgs})"
        elif kind < 0.75 and shape:
            n = 1
            for s in shape:
                n *= s
            start = self.pick(["", "1, "])
            dtype_arg = self.pick([", dtype=torch.float32", ".0", ""]) if True else ""
            if dtype_arg == ".0":
                src = f"torch.arange({start}{n + (1 if start else 0)}.0)"
            elif dtype_arg:
                src = f"torch.arange({start}{n + (1 if start else 0)}{dtype_arg})"
            else:
                src = f"torch.arange({start}{n + (1 if start else 0)})"
                dtype = "int64"
            if len(shape) > 1 or self.r.random() < 0.3:
                src += f".reshape({shape_args})"
            if rg:
                if dtype == "int64":
                    src += ".float()"
                    dtype = "float32"
                src += ".requires_grad_()"
        else:
            fn = self.pick(["ones", "zeros", "full", "linspace", "eye"])
            if fn == "full":
                src = f"torch.full(({shape_args}{',' if len(shape) == 1 else ''}), {self.number('float32')}{rgs})"
            elif fn == "linspace":
                shape = (self.r.randint(2, 5),)
                src = f"torch.linspace({self.r.randint(-2, 0)}, {self.r.randint(1, 3)}, {shape[0]}{rgs})"
            elif fn == "eye":
                shape = (self.r.randint(2, 3),) * 2
                src = f"torch.eye({shape[0]}{rgs})"
            else:
                src = f"torch.{fn}({shape_args or '()'}{rgs})"
        self.emit(f"{name} = {src}")
        v = Var(name, shape, dtype, rg, True)
        self.vars.append(v)
        return v

    def tensor(self, float_only=False):
        cands = [v for v in self.vars if not float_only or v.dtype.startswith("float")]
        if not cands or self.r.random() < 0.15:
            return self.create()
        return self.pick(cands)

    # -- derived values
    def unary(self, v):
        op = self.pick(UNARY_ANY)
        x = v.name
        if op in POSITIVE and self.r.random() < 0.7:
            x = f"{x}.abs()" if op != "log1p" else f"{x}.abs()"
            x = f"({x} + 1)" if self.r.random() < 0.7 else x
        if op == "t" and len(v.shape) > 2:
            op = "flatten"
        shape = v.shape
        if op == "flatten":
            shape = (prod(v.shape),)
        elif op == "t" and len(shape) == 2:
            shape = shape[::-1]
        dtype = {"long": "int64", "int": "int32", "bool": "bool", "double": "float64", "float": "float32"}.get(
            op, v.dtype)
        if op in ("sign", "floor", "ceil", "round", "neg", "abs", "negative", "t", "clone", "flatten", "contiguous",
                  "detach", "relu", "square"):
            dtype = v.dtype if op not in ("long", "int", "bool", "double", "float") else dtype
        elif op not in ("long", "int", "bool", "double", "float") and v.dtype in ("int64", "bool"):
            dtype = "float32"
        rg = v.rg and op not in ("detach", "long", "int", "bool", "sign", "floor", "ceil", "round") or (
            v.rg and op in ("sign", "floor", "ceil", "round"))
        if self.r.random() < 0.3:
            return f"torch.{op}({x})" if op not in ("long", "int", "bool", "double", "float", "contiguous",
                                                    "detach") else f"{x}.{op}()", shape, dtype, rg
        return f"{x}.{op}()", shape, dtype, rg

    def scalar_arith(self, v):
        op = self.pick(["+", "-", "*", "/", "**"])
        s = self.number("float32" if self.r.random() < 0.7 else "int64")
        if op == "**":
            s = self.pick(["2", "3", "0.5", "2.0", "-1", "0", "1"])
            x = f"{v.name}.abs()" if s in ("0.5", "-1") else v.name
            expr = f"{x} ** {s}" if self.r.random() < 0.8 else f"{s} ** {v.name}"
        elif self.r.random() < 0.5:
            expr = f"{v.name} {op} {s}"
        else:
            expr = f"{s} {op} {v.name}"
        dtype = v.dtype
        if dtype in ("int64", "bool") and ("." in s or op == "/" or "e" in s):
            dtype = "float32"
        return expr, v.shape, dtype, v.rg

    def binary(self, a):
        # another tensor of a broadcast-compatible shape, or sometimes an incompatible one
        cands = [b for b in self.vars if b is not a and (self.r.random() < 0.1 or compat(a.shape, b.shape))]
        b = self.pick(cands) if cands else self.tensor()
        op = self.pick(BINOPS)
        if op == "@":
            if len(a.shape) == 2 and len(b.shape) == 2 and a.shape[1] != b.shape[0]:
                expr = f"{a.name} @ {b.name}.t()"
                shape = bshape_mm(a.shape, b.shape[::-1])
            else:
                expr = f"{a.name} @ {b.name}"
                shape = bshape_mm(a.shape, b.shape)
        elif op in ("/", "**") and self.r.random() < 0.6:
            expr = f"{a.name} {op} ({b.name}.abs() + 1)"
            shape = bshape(a.shape, b.shape)
        elif self.r.random() < 0.15:
            fn = self.pick(["add", "sub", "mul", "div", "maximum", "minimum", "pow", "where"])
            if fn == "where":
                expr = f"torch.where({a.name} > 0, {a.name}, {b.name})"
            elif fn in ("add", "sub") and self.r.random() < 0.5:
                expr = f"torch.{fn}({a.name}, {b.name}, alpha={self.pick(['2', '0.5', '-1'])})"
            else:
                expr = f"torch.{fn}({a.name}, {b.name})"
            shape = bshape(a.shape, b.shape)
        else:
            expr = f"{a.name} {op} {b.name}"
            shape = bshape(a.shape, b.shape)
        cmp = op in (">", "<", "==", ">=", "!=")
        dtype = "bool" if cmp else promote(a.dtype, b.dtype, op)
        rg = (a.rg or b.rg) and not cmp and op not in ("//", "%") and dtype.startswith("float")
        return expr, shape, dtype, rg

    def reduction(self, v):
        op = self.pick(REDUCE)
        nd = len(v.shape)
        args = []
        shape = ()
        if (op in NEEDS_DIM or self.r.random() < 0.55) and op not in ("all", "any") or (op in ("all", "any") and nd
                                                                                       and self.r.random() < .4):
            dim = self.r.randint(-nd, nd - 1) if nd else self.pick([0, -1])
            if self.r.random() < 0.08:
                dim = nd + 1
            args.append(str(dim) if self.r.random() < 0.6 else f"dim={dim}")
            keep = self.r.random() < 0.35 and op not in ("cumsum", "softmax", "log_softmax")
            if keep:
                args.append("keepdim=True")
            if op in ("cumsum", "softmax", "log_softmax"):
                shape = v.shape
            elif nd:
                d = dim % nd if -nd <= dim < nd else 0
                shape = tuple(1 if i == d else s for i, s in enumerate(v.shape)) if keep else v.shape[:d] + v.shape[
                    d + 1:]
        if op == "norm" and self.r.random() < 0.3:
            args.insert(0, self.pick(["1", "2", "float('inf')", "p=1"]))
        expr = f"{v.name}.{op}({', '.join(args)})"
        if op in ("max", "min") and args:
            expr += self.pick([".values", ".indices", "[0]", ""])
            if expr.endswith(")"):
                return expr, None, v.dtype, v.rg
        dtype = v.dtype
        if op in ("argmax", "argmin") or expr.endswith((".indices", "[1]")):
            dtype = "int64"
        elif op in ("all", "any"):
            dtype = "bool"
        elif op in ("sum", "prod", "cumsum") and dtype == "bool":
            dtype = "int64"
        elif op in ("mean", "norm", "std", "var", "softmax", "log_softmax", "logsumexp") and dtype == "int64":
            dtype = "float32"
        return expr, shape, dtype, v.rg and dtype.startswith("float")

    def shape_op(self, v):
        s = v.shape
        nd = len(s)
        n = prod(s)
        choices = ["view(-1)", "reshape(-1)", "unsqueeze(0)", f"unsqueeze({-1})", "squeeze()", "flatten()",
                   "flip(0)", f"repeat({', '.join(['2'] + ['1'] * (nd - 1)) if nd else '2'})"]
        if nd >= 2:
            choices += ["t()", "transpose(0, 1)", "T", f"permute({', '.join(map(str, reversed(range(nd))))})",
                        "mT", f"view({s[0]}, -1)", "squeeze(1)", "contiguous()"]
        if n % 2 == 0 and n:
            choices += [f"view(2, {n // 2})", f"reshape({n // 2}, 2)", f"view({n // 2}, 3)"]
        if 1 in s:
            choices += [f"expand({', '.join('3' if d == 1 else str(d) for d in s)})", f"squeeze({s.index(1)})"]
        op = self.pick(choices)
        expr = f"{v.name}.{op}"
        return expr, new_shape(s, op), v.dtype, v.rg

    def index(self, v):
        s = v.shape
        nd = len(s)
        if not nd:
            ix = self.pick(["0", "...", "None", "()"])
        else:
            opts = ["0", "-1", "1:", ":2", "::2", f"{s[0] - 1}", "[0, 0]" if s[0] > 1 else "[0]", f"{v.name} > 0",
                    "None", "...", f"{s[0]}"]
            if nd >= 2:
                opts += ["0, 1", ":, 0", ":, -1", "0, :", "..., 0", "1:, :1", f"{s[0] - 1}, {s[1] - 1}", "[0, 1], [1, 0]"
                         if s[0] > 1 and s[1] > 1 else "0, 0"]
            ix = self.pick(opts)
        return f"{v.name}[{ix}]", None, ("float32" if v.dtype == "bool" else v.dtype), v.rg

    def expr(self, depth=0):
        v = self.tensor()
        if depth < 1 and self.r.random() < 0.3:
            inner, shape, dtype, rg = self.expr(depth + 1)
            if shape is not None:
                name = self.fresh()
                self.emit(f"{name} = {inner}")
                v = Var(name, shape, dtype, rg, not rg)
                self.vars.append(v)
        k = self.r.random()
        if k < 0.2:
            return self.unary(v)
        if k < 0.4:
            return self.scalar_arith(v)
        if k < 0.6:
            return self.binary(v)
        if k < 0.75:
            return self.reduction(v)
        if k < 0.88:
            return self.shape_op(v)
        if k < 0.95:
            return self.index(v)
        return self.combine(v)

    def combine(self, v):
        others = [w for w in self.vars if w.shape == v.shape and w.dtype == v.dtype]
        fn = self.pick(["cat", "stack"])
        parts = [v.name] + [self.pick(others).name for _ in range(self.r.randint(0, 2))]
        dim = self.pick(["", ", 0", ", dim=-1", ", 1"])
        expr = f"torch.{fn}([{', '.join(parts)}]{dim})"
        return expr, None, v.dtype, any(w.rg for w in self.vars if w.name in parts)

    # -- statements
    def assign(self):
        e, shape, dtype, rg = self.expr()
        name = self.fresh()
        self.emit(f"{name} = {e}")
        if shape is not None:
            self.vars.append(Var(name, shape, dtype, rg, not rg))
        else:
            self.emit(self.pick([f"{name}", f"{name}.shape", f"print({name})"]))
        return name

    def look(self):
        v = self.tensor()
        what = self.pick(["", ".grad", ".grad_fn", ".shape", ".dtype", ".requires_grad", ".is_leaf", ".item()",
                          ".tolist()", ".size()", ".grad_fn.name()", ".dim()", ".numel()", ".size(0)",
                          ".grad_fn.next_functions", ".detach()", ".data", ".sum().item()", ".ndim",
                          ".mean().item()", ".norm().item()", ".is_floating_point()", ".T"])
        self.show(f"{v.name}{what}")

    def backward(self):
        cands = [v for v in self.vars if v.rg] or [self.create()]
        v = self.pick(cands)
        k = self.r.random()
        if k < 0.5:
            red = self.pick(["sum()", "mean()", "sum() * 2", "pow(2).sum()", "exp().sum()", "norm()", "max()"])
            self.emit(f"({v.name}.{red}).backward()" if self.r.random() < 0.8 else
                      f"({v.name}.{red}).backward(retain_graph=True)")
        elif k < 0.7:
            self.emit(f"{v.name}.backward()")
        elif k < 0.85:
            self.emit(f"{v.name}.backward(torch.ones_like({v.name}))")
        else:
            g = self.literal(v.shape, "float32")
            self.emit(f"{v.name}.backward(torch.tensor({g}))")
        leaves = [w for w in self.vars if w.leaf and w.rg]
        for w in leaves[: self.r.randint(1, 3)]:
            self.show(f"{w.name}.grad")

    def hook(self):
        cands = [v for v in self.vars if v.rg]
        if not cands:
            return
        v = self.pick(cands)
        body = self.pick(["print(g)", "g * 2", "print(g.shape)", "g + 1", "None", "print('hook', g.sum())"])
        self.emit(f"h{self.n} = {v.name}.register_hook(lambda g: {body})")

    def setitem(self):
        v = self.tensor()
        if not v.shape:
            return
        name = self.fresh()
        src = self.pick([f"{v.name}.clone()", f"{v.name} * 1", f"{v.name}.detach().clone()", v.name])
        self.emit(f"{name} = {src}")
        ix = self.pick(["0", "-1", ":1", f"{v.name} > 0" if src != v.name else "0", "..., 0"])
        val = self.pick([self.number(v.dtype), f"{self.tensor().name}.sum()", "0"])
        self.emit(f"{name}[{ix}] = {val}")
        self.show(name)
        rg = v.rg and "detach" not in src
        self.vars.append(Var(name, v.shape, v.dtype, rg, not rg))
        if rg and self.r.random() < 0.6:
            self.show(f"{name}.grad_fn")

    def no_grad(self):
        v = self.tensor()
        name = self.fresh()
        body = self.pick([f"{name} = {v.name} * 2", f"{v.name} -= 0.1 * {v.name}", f"{name} = {v.name}.exp()",
                          f"{v.name}.add_(1)", f"{name} = {v.name}[0]" if v.shape else f"{name} = {v.name} + 1"])
        self.emit(f"with torch.no_grad():\n    {body}")
        if body.startswith(name):
            self.show(f"{name}.requires_grad")
            self.vars.append(Var(name, v.shape if "[0]" not in body else v.shape[1:], v.dtype, False, True))

    def tutorial(self):
        """The seed tutorials' moves: autograd.grad, jacobian, grad.zero_(), retain_grad, a training step."""
        cands = [v for v in self.vars if v.rg and v.dtype.startswith("float")]
        v = self.pick(cands) if cands else self.create()
        if not v.rg:
            return
        k = self.r.random()
        out = self.fresh()
        f = self.pick(["(x ** 2).sum()", "x.exp().mean()", "(x * 3 + 1).pow(2).sum()", "x.sin().sum() * 2",
                       "x.sigmoid().prod()"])
        if k < 0.25:
            self.emit(f"{out} = {f.replace('x', v.name)}")
            kw = self.pick(["", ", retain_graph=True", ", create_graph=True"])
            self.show(f"torch.autograd.grad({out}, {v.name}{kw})")
        elif k < 0.4:
            fn = self.pick(["lambda t: t ** 2", "lambda t: t.exp() * 2", "lambda t: t.sum() * t"])
            self.show(f"torch.autograd.functional.jacobian({fn}, {v.name}.detach())")
        elif k < 0.6 and v.leaf:
            self.emit(f"({f.replace('x', v.name)}).backward()")
            self.emit(self.pick([f"{v.name}.grad.zero_()", f"{v.name}.grad = None", f"print({v.name}.grad)"]))
            self.emit(f"({f.replace('x', v.name)}).backward()")
            self.show(f"{v.name}.grad")
        elif k < 0.8:
            self.emit(f"{out} = {v.name} * 2")
            self.emit(f"{out}.retain_grad()")
            self.emit(f"{out}.sum().backward()")
            self.show(f"{out}.grad")
        elif v.leaf:
            lr = self.pick(["0.1", "0.01", "0.5"])
            self.emit(f"for step in range({self.r.randint(1, 3)}):\n    loss = {f.replace('x', v.name)}\n"
                      f"    loss.backward()\n    with torch.no_grad():\n        {v.name} -= {lr} * {v.name}.grad\n"
                      f"    {v.name}.grad.zero_()\n    print(loss.item())")
            self.show(v.name)

    def mistake(self):
        v = self.tensor()
        m = self.pick([
            f"{v.name}.backward()", f"{v.name}.item()", f"{v.name}.view(5, 7)", f"{v.name}.sum(dim=5)",
            f"{v.name}.grad.zero_()", f"{v.name} @ torch.ones(5)", f"{v.name}[10]", f"{v.name}.requires_grad_()",
            f"torch.tensor([1, 2]).requires_grad_()", f"{v.name}.add_(torch.ones(7))",
            f"{v.name}.transpose(0, 3)", f"torch.cat([{v.name}, torch.ones(9, 9)])", f"{v.name}.squeeze(4)",
            f"{v.name}.exp_()", f"{v.name}.mul_(2)", f"{v.name}.grad.data",
            f"{v.name}.expand(5, 5)", f"{v.name}.dot({v.name})", f"{v.name}.mv({v.name})",
            f"{v.name}.mm({v.name})", f"{v.name}.softmax()", f"{v.name}.max(dim=0, keepdim=1)",
            f"{v.name}.unsqueeze(9)", f"{v.name}.permute(0)", f"{v.name}.tolist()[9]", f"float({v.name})",
            f"int({v.name})", f"bool({v.name})", f"len({v.name})", f"{v.name} + 'a'", f"{v.name}.grad_fn.next_functions",
            f"{v.name}.reshape(-1, -1)", f"{v.name}.sum(keepdim=True)", f"torch.ones(2, 3) + {v.name}"])
        self.show(m)

    def program(self):
        for _ in range(self.r.randint(1, 3)):
            self.create()
        for _ in range(self.r.randint(3, 9)):
            k = self.r.random()
            if k < 0.3:
                self.assign()
            elif k < 0.43:
                e = self.expr()[0]
                self.show(e)
            elif k < 0.55:
                self.look()
            elif k < 0.67:
                self.backward()
            elif k < 0.73:
                self.hook()
            elif k < 0.8:
                self.setitem()
            elif k < 0.85:
                self.no_grad()
            elif k < 0.95:
                self.tutorial()
            else:
                self.mistake()
        return "\n".join(self.lines) + "\n"

# --------------------------------------------------------------- learner programs (after autograd's first page)
ACTS = ["nn.ReLU()", "nn.Tanh()", "nn.Sigmoid()", "nn.LeakyReLU(0.1)", "nn.GELU()", "nn.ELU()", "nn.Softplus()",
        "nn.SiLU()"]
FNS = {"nn.ReLU()": "torch.relu", "nn.Tanh()": "torch.tanh", "nn.Sigmoid()": "torch.sigmoid",
       "nn.LeakyReLU(0.1)": "F.leaky_relu", "nn.GELU()": "F.gelu", "nn.ELU()": "F.elu", "nn.Softplus()": "F.softplus",
       "nn.SiLU()": "F.silu"}
OPTIMS = ["torch.optim.SGD({p}, lr=0.1)", "torch.optim.SGD({p}, lr=0.05, momentum=0.9)",
          "torch.optim.SGD({p}, lr=0.05, momentum=0.9, nesterov=True)",
          "torch.optim.SGD({p}, lr=0.1, weight_decay=1e-2)", "torch.optim.Adam({p}, lr=0.01)",
          "torch.optim.Adam({p}, lr=1e-3, betas=(0.8, 0.99), weight_decay=0.01)", "torch.optim.AdamW({p}, lr=0.01)",
          "torch.optim.AdamW({p}, lr=3e-3, weight_decay=0.1)", "torch.optim.RMSprop({p}, lr=0.01)",
          "torch.optim.RMSprop({p}, lr=0.01, momentum=0.5)", "torch.optim.Adagrad({p}, lr=0.1)",
          "optim.SGD({p}, lr=1e-2, momentum=0.5, dampening=0.1)", "optim.Adam({p}, amsgrad=True)"]
SCHEDS = ["torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)",
          "torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)",
          "torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5)",
          "torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 3], gamma=0.1)",
          "torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.95 ** e)",
          "optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=3)",
          "optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=20)",
          "optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1)"]
DTYPES = ["torch.float32", "torch.float64", "torch.int64", "torch.int32", "torch.bool", "torch.float16",
          "torch.uint8", "torch.int8", "torch.int16", "torch.bfloat16"]


class LearnerGen:
    """Programs of the pages after autograd: models, training loops, data, printing, indexing, errors, Python."""

    def __init__(self, rnd):
        self.r = rnd
        self.lines = ["import torch"]

    def pick(self, seq):
        return self.r.choice(seq)

    def chance(self, p):
        return self.r.random() < p

    def emit(self, *lines):
        self.lines.extend(lines)

    def show(self, expr):
        self.emit(expr if self.chance(0.5) else f"print({expr})")

    def fmt_float(self, expr):
        """How learners print a float: formatted mostly, raw now and then."""
        return self.pick([f"{{{expr}:.4f}}", f"{{{expr}:.3f}}", f"{{{expr}:.2e}}", f"{{{expr}:8.4f}}",
                          f"{{{expr}:.4g}}", f"{{{expr}:.1%}}" if "acc" in expr else f"{{{expr}:.5f}}"])

    # -- models
    def model(self, n_in, n_out):
        hidden = self.pick([4, 8, 16, 5])
        act = self.pick(ACTS)
        k = self.r.random()
        extra = self.pick(["", "", f"nn.Dropout(0.{self.r.randint(1, 5)}), ", f"nn.BatchNorm1d({hidden}), ",
                           f"nn.LayerNorm({hidden}), "])
        if k < 0.4:
            self.emit(f"model = nn.Sequential(nn.Linear({n_in}, {hidden}), {extra}{act}, nn.Linear({hidden}, {n_out}))")
        elif k < 0.5:
            self.emit("layers = []", f"for a, b in [({n_in}, {hidden}), ({hidden}, {n_out})]:",
                      "    layers.append(nn.Linear(a, b))", f"    layers.append({act})",
                      "model = nn.Sequential(*layers[:-1])")
        else:
            name = self.pick(["Net", "MLP", "TinyNet", "Model"])
            use_fn = self.chance(0.5)
            body = [f"class {name}(nn.Module):",
                    f"    def __init__(self, n_in={n_in}, hidden={hidden}, n_out={n_out}):",
                    f"        super().__init__()" if self.chance(0.8) else f"        super({name}, self).__init__()",
                    "        self.fc1 = nn.Linear(n_in, hidden)"]
            if extra:
                body.append(f"        self.extra = {extra.rstrip(', ')}")
            if not use_fn:
                body.append(f"        self.act = {act}")
            body.append("        self.fc2 = nn.Linear(hidden, n_out)")
            body += ["", "    def forward(self, x):", "        x = self.fc1(x)"]
            if extra:
                body.append("        x = self.extra(x)")
            body.append(f"        x = {FNS[act]}(x)" if use_fn else "        x = self.act(x)")
            body.append("        return self.fc2(x)")
            self.emit(*body)
            self.emit(f"model = {name}()")
        self.emit("F = nn.functional" if "F." in "\n".join(self.lines) else "")
        return hidden

    def inspect_model(self):
        k = self.pick(range(10))
        if k == 0:
            self.show("model")
        elif k == 1:
            self.emit("print(sum(p.numel() for p in model.parameters()))")
        elif k == 2:
            self.emit("for name, p in model.named_parameters():",
                      self.pick(["    print(name, p.shape)", "    print(f'{name:12s} {tuple(p.shape)} {p.requires_grad}')",
                                 "    print(name, p.numel(), p.dtype)"]))
        elif k == 3:
            self.emit("for k, v in model.state_dict().items():", "    print(k, v.shape)")
        elif k == 4:
            self.show("list(model.state_dict().keys())")
        elif k == 5:
            self.show(self.pick(["model.fc1.weight.shape", "model[0].bias", "model[0]", "len(list(model.children()))",
                                 "model.training", "[m for m in model.modules()][1]", "model[0].weight[0]"]))
        elif k == 6:
            self.emit("trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)",
                      "print(f'trainable parameters: {trainable:,}')")
        elif k == 7:
            self.show("next(model.parameters()).shape")
        elif k == 8:
            self.emit("for m in model.children():", "    print(m)")
        else:
            self.show(self.pick(["model.state_dict()['fc1.bias']", "model.state_dict()['0.bias']",
                                 "dict(model.named_children()).keys()"]))

    def loss(self, task, n_out):
        if task == "reg":
            return self.pick(["nn.MSELoss()", "nn.L1Loss()", "nn.SmoothL1Loss()", "nn.HuberLoss(delta=0.5)",
                              "nn.MSELoss(reduction='sum')", "nn.L1Loss(reduction='mean')"])
        if task == "bin":
            return self.pick(["nn.BCEWithLogitsLoss()", "nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))",
                              "nn.BCEWithLogitsLoss(reduction='sum')"])
        w = ", ".join(self.pick(["1.0", "2.0", "0.5"]) for _ in range(n_out))
        return self.pick(["nn.CrossEntropyLoss()", f"nn.CrossEntropyLoss(weight=torch.tensor([{w}]))",
                          "nn.CrossEntropyLoss(label_smoothing=0.1)", "nn.CrossEntropyLoss(reduction='sum')",
                          "nn.CrossEntropyLoss(reduction='none')", "nn.NLLLoss()"])

    def data(self, n_in, task, n_out, n):
        self.emit(f"torch.manual_seed({self.r.randint(0, 999)})")
        self.emit(f"X = torch.randn({n}, {n_in})")
        if task == "reg":
            self.emit(self.pick([f"y = X.sum(dim=1, keepdim=True) * 0.5 + 0.1 * torch.randn({n}, 1)",
                                 f"y = (X[:, :1] * 2 - 1)", f"y = torch.randn({n}, 1)"]))
        elif task == "bin":
            self.emit(self.pick(["y = (X[:, 0] > 0).float().unsqueeze(1)", "y = (X.sum(1, keepdim=True) > 0).float()"]))
        else:
            self.emit(self.pick([f"y = torch.randint(0, {n_out}, ({n},))", f"y = X[:, :{n_out}].argmax(dim=1)"]))

    def train_program(self):
        task = self.pick(["reg", "bin", "cls"])
        n_in = self.pick([2, 3, 4])
        n_out = {"reg": 1, "bin": 1, "cls": self.pick([2, 3])}[task]
        n = self.pick([8, 12, 16, 20])
        self.lines.insert(1, self.pick(["import torch.nn as nn", "from torch import nn"]))
        if self.chance(0.5):
            self.lines.insert(2, self.pick(["import torch.optim as optim", "from torch import optim"]))
        else:
            self.lines.insert(2, "optim = torch.optim")
        self.data(n_in, task, n_out, n)
        self.model(n_in, n_out)
        for _ in range(self.r.randint(0, 2)):
            self.inspect_model()
        lossf = self.loss(task, n_out)
        self.emit(f"loss_fn = {lossf}" if self.chance(0.7) else f"criterion = {lossf}")
        crit = "loss_fn" if self.lines[-1].startswith("loss_fn") else "criterion"
        reduce_none = "'none'" in lossf
        self.emit(f"opt = {self.pick(OPTIMS).format(p='model.parameters()')}")
        if "NLLLoss" in lossf:
            out_expr = "torch.log_softmax(model({x}), dim=1)"
        else:
            out_expr = "model({x})"
        sched = self.pick(SCHEDS) if self.chance(0.4) else None
        if sched:
            self.emit(f"sched = {sched}")
        use_loader = self.chance(0.5)
        epochs = self.r.randint(2, 5)
        if use_loader:
            self.lines.insert(1, self.pick(["from torch.utils.data import TensorDataset, DataLoader",
                                            "from torch.utils.data import DataLoader, TensorDataset"]))
            bs = self.pick([4, 5, 8])
            extra = self.pick(["", ", shuffle=True", ", drop_last=True", ", shuffle=False"])
            self.emit("ds = TensorDataset(X, y)", f"loader = DataLoader(ds, batch_size={bs}{extra})")
            if self.chance(0.3):
                self.show(self.pick(["len(ds)", "len(loader)", "ds[0]", "next(iter(loader))[0].shape"]))
        self.emit(self.pick(["model.train()", "", ""]))
        lossline = f"loss = {crit}({out_expr.format(x='xb' if use_loader else 'X')}, {'yb' if use_loader else 'y'})"
        if reduce_none:
            lossline += ".mean()"
        body = []
        if use_loader:
            body.append(f"for epoch in range({epochs}):")
            body.append("    total = 0.0")
            body.append(self.pick(["    for xb, yb in loader:", "    for i, (xb, yb) in enumerate(loader):",
                                   "    for batch in loader:\n        xb, yb = batch"]))
            ind = "        "
            step_lines = [self.pick(["opt.zero_grad()", "opt.zero_grad(set_to_none=True)", "model.zero_grad()"]),
                          lossline, "loss.backward()", "opt.step()", "total += loss.item() * len(xb)"]
            body += [ind + s for s in step_lines]
            if sched and "Plateau" in sched:
                body.append("    sched.step(total)")
            elif sched:
                body.append("    sched.step()")
            pr = self.pick(["    print(epoch, total / len(ds))", f"    print(f'epoch {{epoch}}: loss {self.fmt_float('total / len(ds)')}')",
                            "    print('epoch {}: {:.4f}'.format(epoch + 1, total / len(ds)))",
                            "    print('epoch %d loss %.4f' % (epoch, total / len(ds)))"])
            body.append(pr)
        else:
            body.append(f"for epoch in range({epochs * 3}):")
            ind = "    "
            step_lines = [self.pick(["opt.zero_grad()", "optimizer_zero = opt.zero_grad()"]), lossline,
                          "loss.backward()", "opt.step()"]
            body += [ind + s for s in step_lines]
            if sched and "Plateau" in sched:
                body.append("    sched.step(loss.item())")
            elif sched:
                body.append("    sched.step()")
            body.append(self.pick(["    if epoch % 3 == 0:\n        print(epoch, loss.item())",
                                   f"    if epoch % 3 == 0:\n        print(f'{{epoch:3d}} {self.fmt_float('loss.item()')}')",
                                   "    if (epoch + 1) % 3 == 0:\n        print(f'[{epoch + 1}] loss={loss:.4f}')",
                                   "    if epoch % 2 == 0:\n        print(loss)"]))
        self.emit(*body)
        if sched and self.chance(0.6):
            self.show(self.pick(["sched.get_last_lr()", "opt.param_groups[0]['lr']", "sched.last_epoch"]))
        if self.chance(0.3):
            self.show(self.pick(["opt.param_groups[0]['lr']", "list(opt.state_dict().keys())",
                                 "len(opt.state_dict()['state'])", "opt.state_dict()['param_groups'][0]['params']",
                                 "opt", "opt.defaults['lr']"]))
        # evaluation
        self.emit(self.pick(["model.eval()", "_ = model.eval()", ""]))
        ev = ["with torch.no_grad():", f"    out = {out_expr.format(x='X')}"]
        if task == "cls":
            ev += [self.pick(["    pred = out.argmax(dim=1)", "    pred = out.argmax(1)", "    _, pred = torch.max(out, 1)"]),
                   "    acc = (pred == y).float().mean().item()",
                   self.pick(["    print(f'accuracy: {acc:.2%}')", "    print('acc', acc)",
                              "    print(f'{(pred == y).sum().item()}/{len(y)} correct')"])]
        elif task == "bin":
            ev += ["    pred = (torch.sigmoid(out) > 0.5).float()",
                   self.pick(["    print((pred == y).float().mean())", "    print(f'acc {(pred == y).float().mean().item():.3f}')"])]
        else:
            ev += [self.pick(["    print(f'mse {((out - y) ** 2).mean().item():.4f}')", "    print(out[:3])",
                              "    print(out.shape, out.requires_grad)"])]
        self.emit(*ev)
        if self.chance(0.3):
            self.show(self.pick(["out.requires_grad", "model.training", "model.fc1.weight.grad is None" if "class" in
                                 "\n".join(self.lines) else "model[0].weight.grad.shape", "loss.grad_fn"]))

    # -- printing of tensors
    def print_program(self):
        self.emit(f"torch.manual_seed({self.r.randint(0, 99)})")
        for _ in range(self.r.randint(3, 7)):
            k = self.r.randint(0, 13)
            if k == 0:
                dt = self.pick(DTYPES)
                shape = self.pick(["3", "2, 3", "4, 1", "2, 2, 2", "0", "1"])
                self.show(self.pick([f"torch.zeros({shape}, dtype={dt})", f"torch.ones({shape}, dtype={dt})",
                                     f"torch.arange(6, dtype={dt})" if "bool" not in dt else "torch.arange(6) > 2"]))
            elif k == 1:
                self.show(self.pick(["torch.randn(40, 40)", "torch.arange(2000)", "torch.rand(1001)",
                                     "torch.randn(3, 400)", "torch.arange(1200.).reshape(30, 40)",
                                     "torch.randn(1100) * 1e5", "torch.zeros(5, 300)"]))
            elif k == 2:
                self.show(self.pick(["torch.tensor([1e-5, 1.0, 100.0])", "torch.tensor([1e10, 1.0])",
                                     "torch.tensor([0.001, 12345.6789])", "torch.tensor([1.5e-8, 2.0])",
                                     "torch.tensor(123456789.0)", "torch.tensor([1e8, 1e9])",
                                     "torch.tensor([float('inf'), -float('inf'), float('nan'), 1.5])",
                                     "torch.tensor([1.0, 2.0, 3.0]) * 1000", "torch.tensor([0.1, 0.25]) / 3",
                                     "torch.tensor([[1e-3, 5e3], [2.0, 3.0]])", "torch.tensor([100000.0, 0.5])"]))
            elif k == 3:
                self.show(self.pick(["torch.tensor(3)", "torch.tensor(2.5)", "torch.tensor(True)",
                                     "torch.tensor(7, dtype=torch.float64)", "torch.tensor([])", "torch.empty(0, 3)",
                                     "torch.tensor([[]])", "torch.zeros(2, 0)", "torch.tensor(-0.0)",
                                     "torch.tensor([1, 2, 3], dtype=torch.float64)", "torch.tensor([True, False])",
                                     "torch.tensor([1.5], dtype=torch.float16)", "torch.tensor([-1, 300]).to(torch.uint8)"]))
            elif k == 4:
                p = self.pick(["precision=2", "precision=6", "sci_mode=False", "sci_mode=True", "threshold=5",
                               "linewidth=40", "edgeitems=1", "profile='short'", "precision=3, sci_mode=False"])
                self.emit(f"torch.set_printoptions({p})")
                self.show(self.pick(["torch.randn(3, 4)", "torch.arange(20.) / 7", "torch.tensor([1e-6, 3.0])",
                                     "torch.linspace(0, 1, 12)"]))
                self.emit("torch.set_printoptions(profile='default')" if self.chance(0.7) else "")
            elif k == 5:
                v = self.pick(["torch.randn(2, 3, requires_grad=True)", "torch.ones(2, requires_grad=True) * 3",
                               "torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True).exp()",
                               "torch.randn(3).double()", "torch.randn(2, 2).half()"])
                self.show(v)
            elif k == 6:
                x = self.pick(["torch.randn(3, 4)", "torch.arange(12).view(3, 4)", "torch.rand(2, 3, 4)"])
                self.emit(f"t = {x}")
                self.show(self.pick(["t.shape", "t.size()", "t.dtype", "t.stride()", "t.ndim", "t.numel()",
                                     "t.tolist()", "t.T", "t.is_contiguous()", "t.t().is_contiguous()", "str(t.dtype)",
                                     "t.device", "t.type()", "t.element_size()", "t.shape[-1]", "tuple(t.shape)",
                                     "list(t.size())", "t.size(1)", "t.storage_offset()", "t[1:].storage_offset()"]))
            elif k == 7:
                self.emit(self.pick(["t = torch.randn(4)", "t = torch.arange(5.)", "t = torch.tensor([0.5, -1.25])"]))
                self.emit(self.pick(["print(f'{t}')", "print('t =', t)", "print(f't: {t.sum():.3f}')", "print(repr(t))",
                                     "print(str(t))", "print(f'{t.mean().item():.4f} {t.std().item():.4f}')",
                                     "print(t.numpy())", "print([round(v, 3) for v in t.tolist()])",
                                     "print(f'{t.max()}')", "print('{:.2f}'.format(t[0].item()))",
                                     "print(f'{t[0]:.2f}')"]))
            elif k == 8:
                self.show(self.pick(["torch.finfo(torch.float32)", "torch.finfo(torch.float32).eps",
                                     "torch.iinfo(torch.int32).max", "torch.get_default_dtype()",
                                     "torch.tensor([1, 2]).dtype", "torch.tensor([1., 2]).dtype", "torch.float",
                                     "torch.long", "torch.promote_types(torch.int64, torch.float32)",
                                     "torch.tensor([1, 2]) / 2", "torch.tensor([1, 2]) // 2",
                                     "torch.tensor([1, 2]) * 1.5", "torch.tensor([True, False]) + 1",
                                     "torch.tensor([1, 2], dtype=torch.int32) + torch.tensor([1, 2])",
                                     "torch.tensor(3) + 2.5", "torch.tensor([1, 2]) ** 0.5"]))
            elif k == 9:
                self.show(self.pick(["torch.randint(0, 10, (3, 4))", "torch.randperm(8)", "torch.rand(2, 2) * 100",
                                     "torch.normal(0.0, 1.0, size=(2, 3))", "torch.empty(3).uniform_(-1, 1)",
                                     "torch.randn(2, 3).round(decimals=2)", "torch.multinomial(torch.tensor([0.2, 0.8]), 5, replacement=True)",
                                     "torch.bernoulli(torch.full((6,), 0.5))", "torch.randn(5).sort()",
                                     "torch.randn(6).topk(2)", "torch.rand(3, 2).max(dim=0)"]))
            elif k == 10:
                self.show(self.pick(["torch.arange(0, 1, 0.1)", "torch.linspace(0, 1, 5)", "torch.logspace(0, 3, 4)",
                                     "torch.eye(3, dtype=torch.int64)", "torch.full((2, 2), 7)", "torch.full((2,), True)",
                                     "torch.zeros_like(torch.ones(2, 3))", "torch.arange(10).reshape(2, 5).float().mean(1)",
                                     "torch.tensor([[1, 2], [3, 4]]).float().inverse()" if False else "torch.tril(torch.ones(3, 3))",
                                     "torch.arange(-3, 3).abs()", "torch.tensor([2.5, 3.5, -0.5]).round()",
                                     "torch.tensor(10) // 3", "torch.tensor(-7) % 3", "torch.tensor([-7.5]) % 2"]))
            elif k == 11:
                self.show(self.pick(["torch.randn(2, 3).to(torch.float64)", "torch.randn(2).to('cpu')",
                                     "torch.ones(2).to(device)", "torch.ones(2, device=device)",
                                     "torch.device('cpu')", "device", "torch.ones(2).cpu().numpy()",
                                     "torch.ones(2).device.type", "torch.cuda.is_available()"]))
                if "device = " not in "\n".join(self.lines):
                    i = len(self.lines) - 1
                    self.lines.insert(i, "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')")
            elif k == 12:
                self.show(self.pick(["torch.randn(3, 3).mean().item()", "torch.rand(4).sum().item()",
                                     "torch.randn(2, 2).tolist()", "float(torch.randn(()))", "int(torch.tensor(3.7))",
                                     "torch.randn(5).argmax().item()", "torch.tensor([1.1, 2.2]).sum().item()"]))
            else:
                self.show(self.pick(["torch.randn(8).view(2, 4)", "torch.randn(1, 1, 2, 3)", "torch.ones(2, 1, 1, 2)",
                                     "torch.arange(24).view(2, 3, 4)", "torch.randn(4, 1) * torch.randn(1, 4)",
                                     "torch.randn(3, 5).clamp(min=0)", "torch.randn(2, 50)", "torch.randn(2, 2, 30)"]))

    # -- indexing
    def index_program(self):
        base = self.pick(["torch.arange(12).reshape(3, 4)", "torch.arange(24.).view(2, 3, 4)",
                          "torch.randn(4, 5)", "torch.tensor([[1., -2., 3.], [-4., 5., -6.]])", "torch.arange(10)"])
        if "randn" in base:
            self.emit(f"torch.manual_seed({self.r.randint(0, 99)})")
        self.emit(f"x = {base}")
        nd = 3 if "2, 3, 4" in base else (1 if base == "torch.arange(10)" else 2)
        opts1 = ["x[x > 0]", "x[x % 2 == 0]", "x[[0, 2]]", "x[-1]", "x[::2]", "x[None]", "x[..., None].shape",
                 "x[torch.tensor([1, 0])]", "x[1:3]", "x[::-1]", "x[10]", "x[torch.tensor([True, False])]",
                 "x[x > 100]", "x[[0, 0, 1]]", "x[-5:]", "x[:, None].shape" if nd == 1 else "x[:, None, 0].shape",
                 "x[torch.tensor(1)]", "x[1.0]", "x[[True, False]]"]
        opts2 = ["x[:, 0]", "x[0, :]", "x[..., -1]", "x[1, 2]", "x[:, [0, 2]]", "x[[0, 1], [1, 2]]", "x[:, ::-1]",
                 "x[:, 1:]", "x[0][1]", "x[0, 1].item()", "x[:, :, 0]", "x[x[:, 0] > 0]", "x[:, -1:]",
                 "x[[0, 1]][:, [0]]", "x[..., 0:1]", "x[1, ..., 0]", "x.T[0]", "x[:2, :2]", "x[0, 5]", "x[:, 9]",
                 "x[0, 0, 0, 0]", "x[torch.arange(2), torch.tensor([0, 1])]"]
        for _ in range(self.r.randint(3, 6)):
            k = self.r.random()
            if k < 0.55:
                e = self.pick(opts1 + (opts2 if nd > 1 else []))
                self.show(e)
            elif k < 0.85:
                y = self.pick(["x.clone()", "x.float().clone()", "x.clone().float()"])
                self.emit(f"y = {y}")
                ix = self.pick(["y > 3", "0", ":, 1" if nd > 1 else "1:3", "[0, -1]", "y < 0", "..., 0", "1:, :1"
                                if nd > 1 else ":2", "y == y.max()"])
                val = self.pick(["0", "-1.5", "torch.tensor(9.)", "float('nan')", "100",
                                 "torch.zeros(2)" if nd == 1 else "torch.tensor([7.0])"])
                self.emit(f"y[{ix}] = {val}")
                self.show("y")
            else:
                self.show(self.pick(["x.masked_fill(x > 2, 0)", "torch.where(x > 2, x, torch.zeros_like(x))",
                                     "x.gather(0, torch.zeros(1, x.shape[1] if x.dim() > 1 else 1, dtype=torch.long))"
                                     if nd == 2 else "x.index_select(0, torch.tensor([0, 1]))",
                                     "x.nonzero()", "(x > 2).nonzero().shape", "x.masked_select(x > 1)",
                                     "torch.where(x > 3)", "x.flip(0)", "x.narrow(0, 0, 1)", "x.unbind(0)[0]",
                                     "x.chunk(2)", "x.split(1)", "x.index_select(0, torch.tensor([0, 0]))"]))

    # -- views, in-place, version counter, hooks, accumulation
    def inplace_program(self):
        self.emit(self.pick(["a = torch.randn(3, requires_grad=True)", "a = torch.tensor([1., 2., 3.], requires_grad=True)",
                             "a = torch.ones(2, 2, requires_grad=True)"]))
        if "randn" in self.lines[-1]:
            self.lines.insert(1, "torch.manual_seed(0)")
        for _ in range(self.r.randint(2, 5)):
            k = self.r.randint(0, 11)
            if k == 0:
                self.emit("b = a * 2", self.pick(["b.add_(1)", "b += 1", "b.mul_(2)", "b[0] = 0", "b.relu_()"]))
                self.show(self.pick(["b", "b.grad_fn", "b._version" if False else "b.is_leaf"]))
                self.emit("b.sum().backward()")
                self.show("a.grad")
            elif k == 1:
                self.emit(self.pick(["a.add_(1)", "a += 1", "a[0] = 5", "a.zero_()", "a.data.add_(1)", "a.data[0] = 5",
                                     "a.fill_(2)", "a.clamp_(0, 1)"]))
                self.show("a")
            elif k == 2:
                self.emit("b = a.exp()", self.pick(["b.add_(1)", "b.mul_(2)", "b.sigmoid_()"]),
                          "b.sum().backward()", "print(a.grad)")
            elif k == 3:
                self.emit("b = a.sigmoid()" if self.chance(0.5) else "b = a ** 2", "c = b * 3",
                          self.pick(["b.zero_()", "b.add_(1)", "b.data.zero_()"]), "c.sum().backward()", "a.grad")
            elif k == 4:
                self.emit("v = a.view(-1)" if self.chance(0.5) else "v = a[:1]", "w = v * 1",
                          self.pick(["v.mul_(2)", "w.mul_(2)"]), "w.sum().backward()")
                self.show("a.grad")
            elif k == 5:
                self.emit("b = a.detach()", "b.add_(1)")
                self.show(self.pick(["a", "b.requires_grad", "a.requires_grad"]))
            elif k == 6:
                self.emit("for i in range(3):", self.pick(["    (a * i).sum().backward()", "    a.sum().backward()",
                                                           "    (a ** 2).mean().backward()"]),
                          self.pick(["    print(a.grad)", "    print(i, a.grad.sum().item())", ""]))
                self.show("a.grad")
                if self.chance(0.5):
                    self.emit("a.grad.zero_()" if self.chance(0.5) else "a.grad = None")
            elif k == 7:
                self.emit("h = a.register_hook(lambda g: g * 10)", "(a * a).sum().backward()", "print(a.grad)",
                          "h.remove()", "a.grad = None", "(a * a).sum().backward()", "print(a.grad)")
            elif k == 8:
                self.emit("m = a * 3", self.pick(["m.retain_grad()", ""]), "m.sum().backward()")
                self.show(self.pick(["m.grad", "m.is_leaf", "m.requires_grad", "a.grad"]))
            elif k == 9:
                self.emit("loss = (a * 2).sum()", "loss.backward()",
                          self.pick(["loss.backward()", "loss.backward(retain_graph=True)", "a.grad"]))
            elif k == 10:
                self.emit("def hook(grad):", "    print('grad seen:', grad)", "    return grad * 0.5",
                          "y = a * 2", "y.register_hook(hook)", "y.sum().backward()")
                self.show("a.grad")
            else:
                self.emit("b = a.clone()", "b.requires_grad_(False)" if self.chance(0.3) else "b.detach_()",
                          "print(b.requires_grad, b.is_leaf)")

    # -- mistakes learners make
    def error_program(self):
        self.emit(f"torch.manual_seed({self.r.randint(0, 9)})")
        setup = self.pick(["x = torch.randn(3, 4)\nw = torch.randn(3, 2)", "x = torch.randn(2, 3)\nw = torch.randn(2, 3)",
                           "x = torch.randn(4)\nw = torch.randn(3)", "x = torch.randint(0, 5, (2, 3))\nw = torch.randn(3, 2)"])
        self.emit(setup)
        wrong = self.pick(["x @ w", "torch.mm(x, w)", "x.matmul(w)", "x + w", "x * w", "torch.cat([x, w], dim=1)",
                           "torch.stack([x, w])", "x.view(5, -1)", "x.reshape(7)", "x.dot(w)", "torch.bmm(x, w)",
                           "x.t() @ w", "w.T @ x", "x @ w.T", "torch.matmul(x, w.float())", "x.long() @ w",
                           "x.view(-1, 3)", "x.double() + w", "x.int() * 2.5"])
        if self.chance(0.5):
            self.emit("try:", f"    out = {wrong}", self.pick(["    print(out.shape)", "    print(out)"]),
                      self.pick(["except RuntimeError as e:", "except Exception as e:"]),
                      self.pick(["    print('error:', e)", "    print(f'oops: {e}')",
                                 "    print(str(e)[:40])"]))
        else:
            self.show(wrong)
        more = self.pick([
            "z = torch.ones(3, requires_grad=True)\nz.backward()",
            "z = torch.ones(3, requires_grad=True)\n(z * 2).backward()",
            "z = torch.ones(1, requires_grad=True)\n(z * 2).backward()\nz.grad",
            "z = torch.ones(3, requires_grad=True)\nz.add_(1)",
            "z = torch.ones(3, requires_grad=True)\nz[0] = 2.0",
            "z = torch.tensor([1, 2, 3], requires_grad=True)",
            "z = torch.ones(3, device='cuda')",
            "z = torch.ones(3).to('cuda')",
            "z = torch.ones(3).cuda()",
            "z = torch.ones(3, requires_grad=True)\nloss = (z * z).sum()\nloss.backward()\nloss.backward()",
            "z = torch.ones(3, requires_grad=True)\nz.numpy()",
            "z = torch.ones(2, 2, requires_grad=True)\nz.grad.zero_()",
            "z = torch.ones(2, requires_grad=True)\nprint(z.grad)\n(z.sum() * 2).backward()\nprint(z.grad)",
            "lin = torch.nn.Linear(3, 2)\nlin(torch.randn(4, 5))",
            "lin = torch.nn.Linear(3, 2)\nlin(torch.randint(0, 3, (4, 3)))",
            "lin = torch.nn.Linear(3, 2)\nlin(torch.randn(4, 3).double())",
            "ce = torch.nn.CrossEntropyLoss()\nce(torch.randn(4, 3), torch.tensor([0., 1., 2., 1.]))",
            "ce = torch.nn.CrossEntropyLoss()\nce(torch.randn(4, 3), torch.tensor([0, 1, 5, 1]))",
            "ce = torch.nn.CrossEntropyLoss()\nce(torch.randn(4, 3), torch.tensor([0, 1, 2]))",
            "mse = torch.nn.MSELoss()\nmse(torch.randn(4, 1), torch.randn(4))",
            "mse = torch.nn.MSELoss()\nmse(torch.randn(4), torch.tensor([1, 2, 3, 4]))",
            "bce = torch.nn.BCELoss()\nbce(torch.randn(3), torch.ones(3))",
            "torch.tensor([1, 2]) + torch.tensor([1.5, 2.5])",
            "torch.ones(2, 3).sum(dim=2)",
            "torch.tensor([[1, 2], [3]])",
            "torch.zeros(2, 3)[:, ::-1]",
            "torch.arange(5).float().mean(dtype=torch.int64)",
            "torch.arange(5).mean()",
            "torch.tensor([1, 2, 3]).std()",
            "torch.ones(3).item()",
            "torch.randn(2, 2).numpy()[5]",
            "torch.nn.Linear(2, 2).weight.add_(1)",
            "t = torch.ones(2)\nt.grad_fn.name()",
            "torch.ones(3).view(2, 2)",
            "torch.ones(2, 3).t().view(-1)",
            "torch.zeros(3).expand(2, 4)",
            "torch.optim.SGD([torch.ones(2)], lr=0.1)",
            "torch.optim.SGD(torch.nn.Linear(2, 2).parameters())",
            "torch.optim.Adam(torch.nn.Linear(2, 2).parameters(), lr=-1)",
            "torch.nn.Linear(2, 2)(torch.ones(2)).backward()",
            "x.requires_grad = True\n(x ** 2).sum().backward()\nx.grad.shape",
        ])
        self.emit(more)

    # -- Python around it
    def python_program(self):
        self.emit(f"torch.manual_seed({self.r.randint(0, 99)})")
        self.emit(self.pick(["data = torch.randn(5, 3)", "data = torch.arange(15.).view(5, 3)",
                             "data = torch.rand(5, 3) * 10"]))
        for _ in range(self.r.randint(3, 6)):
            k = self.r.randint(0, 13)
            if k == 0:
                self.emit("for i, row in enumerate(data):",
                          self.pick(["    print(i, row)", "    print(f'{i}: {row.sum():.2f}')",
                                     "    print(f'row {i:02d} -> {row.max().item():>8.3f}')",
                                     "    print('{} {:.3f}'.format(i, row.mean().item()))",
                                     "    print('%d %.2f' % (i, row[0]))"]))
            elif k == 1:
                self.emit("stats = {'mean': data.mean(), 'std': data.std(), 'max': data.max()}",
                          self.pick(["for k, v in stats.items():\n    print(f'{k:>5}: {v:.4f}')",
                                     "for k in stats:\n    print(k, stats[k].item())",
                                     "print({k: round(v.item(), 3) for k, v in stats.items()})",
                                     "print(sorted(stats))", "print(stats)"]))
            elif k == 2:
                self.show(self.pick(["[round(x, 2) for x in data[0].tolist()]", "[r.sum().item() for r in data][:2]",
                                     "list(zip(data[:, 0].tolist(), data[:, 1].tolist()))[:2]",
                                     "[t.shape for t in data.split(2)]", "sum(r.numel() for r in data)",
                                     "max(data.tolist(), key=sum)", "sorted(data[:, 0].tolist())",
                                     "{i: v for i, v in enumerate(data[0].tolist())}",
                                     "list(map(lambda t: t.argmax().item(), data))",
                                     "[x for x in data[:, 0] if x > 0]", "any(x > 5 for x in data.flatten())",
                                     "all(data.flatten() > -100)", "len(data)", "list(range(0, len(data), 2))"]))
            elif k == 3:
                self.emit(self.pick(["name = 'loss'\nval = data.mean()\nprint(f'{name}={val:.3f}')",
                                     "print(f'{data.shape}')", "print(f'{data.shape[0]} rows, {data.dtype}')",
                                     "print(f'{data.sum().item()=}')" if False else "print(f'{data.sum().item():,.2f}')",
                                     "print(f'{data[0, 0]:+.3e}')", "print(f'{data.numel():5d}|{3.14159:<8.2f}|')",
                                     "print('{:>10}'.format('x'), '{:^7}'.format('mid'))",
                                     "print('{0} and {1} and {0}'.format(data.shape, data.dtype))",
                                     "print('{name}: {value:.2f}'.format(name='mean', value=data.mean().item()))",
                                     "print('%s has %d elements' % ('data', data.numel()))",
                                     "print(f'{\"acc\":>6} {0.8765:.1%}')", "print(f'{data.mean()!r}')",
                                     "print(f'{data.mean()}')", "print(format(data.std().item(), '.3f'))",
                                     "print(f'{data[0]}')", "print(f'{int(data.max()):03d}')"]))
            elif k == 4:
                self.emit("class Scaler:", "    def __init__(self, t):", "        self.mu = t.mean(0)",
                          "        self.sd = t.std(0)", "", "    def transform(self, t):",
                          "        return (t - self.mu) / self.sd", "sc = Scaler(data)")
                self.show(self.pick(["sc.transform(data).mean(0)", "sc.transform(data)[0]", "sc.mu", "sc.transform(data).std(0)"]))
            elif k == 5:
                self.emit("def accuracy(logits, y):", "    return (logits.argmax(1) == y).float().mean().item()",
                          "print(accuracy(data, torch.tensor([0, 1, 2, 0, 1])))")
            elif k == 6:
                self.emit("try:", self.pick(["    data.view(7, -1)", "    data[9]", "    data @ data",
                                             "    data.sum(dim=3)", "    float(data)", "    data + torch.ones(4)"]),
                          self.pick(["except RuntimeError as e:\n    print('RuntimeError:', e)",
                                     "except IndexError as e:\n    print('index', e)",
                                     "except (RuntimeError, IndexError) as e:\n    print(e)",
                                     "except Exception as e:\n    print(repr(e)[:60])",
                                     "except Exception:\n    print('failed')\nfinally:\n    print('done')"]))
            elif k == 7:
                self.emit("losses = []", "for step in range(4):",
                          "    losses.append((data * (step + 1)).mean().item())",
                          self.pick(["print(losses)", "print([f'{l:.3f}' for l in losses])",
                                     "print(min(losses), losses.index(min(losses)))", "print(sum(losses) / len(losses))"]))
            elif k == 8:
                self.emit("a, b, *rest = data", self.pick(["print(len(rest), a.shape)", "print(b)", "print(rest[0])"]))
            elif k == 9:
                self.emit("x = data[0]", "while x.abs().sum() < 100:", "    x = x * 2", "print(x)")
            elif k == 10:
                self.show(self.pick(["str(data.shape)", "repr(data.dtype)", "type(data)", "isinstance(data, torch.Tensor)",
                                     "type(data.shape)", "data.shape == (5, 3)", "data.shape == torch.Size([5, 3])",
                                     "torch.Size([2, 3])", "list(data.shape)", "data.size() + (1,)",
                                     "data.shape.numel()", "type(data.tolist()[0][0])", "type(data[0, 0].item())",
                                     "hasattr(data, 'grad')", "getattr(data, 'shape')", "callable(data.sum)",
                                     "data.sum", "torch.Tensor", "torch.nn.Linear", "type(torch.nn.Linear(1, 1))"]))
            elif k == 11:
                self.emit("import math", self.pick(["print(math.sqrt(data.var().item()))", "print(math.pi * data.mean())",
                                                    "print(torch.tensor(math.e).log())", "print(math.exp(-data[0, 0].item()))",
                                                    "print(math.isclose(data.sum().item(), float(data.sum())))",
                                                    "print(math.log(2) / data.numel())"]))
            elif k == 12:
                self.emit("import random", "random.seed(0)", self.pick(["idx = list(range(5))\nrandom.shuffle(idx)\nprint(idx)",
                                                                       "print(random.random(), random.randint(0, 9))",
                                                                       "print(data[random.randrange(5)])",
                                                                       "print(random.choice(['a', 'b', 'c']))",
                                                                       "print(random.sample(range(10), 3))"]))
            else:
                self.emit("gen = (r.sum() for r in data)", self.pick(["print(next(gen))", "print(list(gen)[-1])",
                                                                      "print(sum(gen))"]))

    def program(self):
        k = self.r.random()
        if k < 0.35:
            self.train_program()
        elif k < 0.5:
            self.print_program()
        elif k < 0.62:
            self.index_program()
        elif k < 0.74:
            self.inplace_program()
        elif k < 0.87:
            self.error_program()
        else:
            self.python_program()
        return "\n".join(l for l in self.lines if l != "") + "\n"


def prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def compat(a, b):
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and 1 not in (x, y):
            return False
    return True


def bshape(a, b):
    if not compat(a, b):
        return a
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    return tuple(max(x, y) for x, y in zip(a, b))


def bshape_mm(a, b):
    if len(a) == 1 and len(b) == 1:
        return ()
    if len(a) == 2 and len(b) == 1:
        return (a[0],)
    if len(a) == 1 and len(b) == 2:
        return (b[1],)
    if len(a) >= 2 and len(b) >= 2:
        return bshape(a[:-2], b[:-2]) + (a[-2], b[-1])
    return a


def promote(a, b, op):
    order = ["bool", "int32", "int64", "float32", "float64"]
    d = max(a, b, key=order.index)
    if op == "/" and d in ("bool", "int32", "int64"):
        return "float32"
    return d


def new_shape(s, op):
    n = prod(s)
    nd = len(s)
    if op in ("view(-1)", "reshape(-1)", "flatten()"):
        return (n,) if nd else ((1,) if op == "view(-1)" or op == "reshape(-1)" else (1,))
    if op == "unsqueeze(0)":
        return (1,) + s
    if op == "unsqueeze(-1)":
        return s + (1,)
    if op == "squeeze()":
        return tuple(d for d in s if d != 1)
    if op in ("t()", "transpose(0, 1)", "T", "mT") and nd == 2:
        return s[::-1]
    if op.startswith("permute"):
        return s[::-1]
    if op.startswith("repeat"):
        return ((2 * s[0],) + s[1:]) if nd else (2,)
    if op.startswith(("view(", "reshape(")):
        parts = op[op.index("(") + 1:-1].split(", ")
        dims = [int(p) for p in parts]
        if -1 in dims:
            known = prod([d for d in dims if d != -1])
            dims = [n // known if d == -1 else d for d in dims]
        return tuple(dims)
    if op.startswith("expand"):
        return tuple(int(p) for p in op[7:-1].split(", "))
    if op.startswith("squeeze("):
        k = int(op[8:-1])
        return s[:k] + s[k + 1:] if k < nd and s[k] == 1 else s
    return s


def generate(seed, n, kind="mix"):
    """kind: 'autograd' (the first autograd page), 'learner' (models, training, data, printing, indexing,
    errors, Python around them) or 'mix' (half each)."""
    progs = []
    for i in range(n):
        rnd = random.Random(f"{seed}:{i}") if kind != "learner" else random.Random(f"L{seed}:{i}")
        use_learner = kind == "learner" or (kind == "mix" and i % 2 == 1)
        if use_learner and kind == "mix":
            rnd = random.Random(f"L{seed}:{i}")
        progs.append((LearnerGen(rnd) if use_learner else Gen(rnd)).program())
    return progs


# ------------------------------------------------------------------ running both sides
def run_torch(programs, torch_py):
    """One result per program (JSON lines); a program that crashes PyTorch itself (it happens:
    a hook on a view modified under no_grad segfaults 2.13) gets None and the rest run on."""
    results = []
    while len(results) < len(programs):
        rest = programs[len(results):]
        p = subprocess.run([torch_py, "-c", ORACLE], input=json.dumps(rest), capture_output=True, text=True)
        results += [json.loads(line) for line in p.stdout.splitlines()]
        if p.returncode != 0:
            if len(results) == len(programs):
                raise SystemExit(f"oracle failed:\n{p.stderr[-2000:]}")
            results.append(None)
    return results


def run_gradrepl(src):
    from gradrepl.engine import api
    from gradrepl.lang import Session, run_source
    from gradrepl.engine import printing
    out = []
    session = Session(write=out.append)
    api.reset_state()
    printing.set_printoptions(profile="default")   # a program's print options end with it, as in the oracle
    result = run_source(src, session, filename="case.py")
    first = result.errors[0] if result.errors else None
    return {"out": "".join(out), "err": first.headline if first else "", "line": first.line if first else 0,
            "internal": first is not None and first.kind == "internal"}


def norm(text):
    text = ADDR.sub("0xADDR", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def compare(want, got):
    problems = []
    if norm(want["out"]) != norm(got["out"]):
        problems.append("stdout")
    if bool(want["err"]) != bool(got["err"]) or (want["err"] and norm(want["err"]) != norm(got["err"])):
        problems.append("error")
    if got.get("internal"):
        problems.append("internal")
    return problems


NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def rounded(text):
    """Numbers cut to 4 significant digits: outputs equal after this differ only in last digits."""
    return NUMBER.sub(lambda m: f"{float(m.group()):.4g}", text)


def bucket(want, got):
    """What the difference is about: the first differing line, the error pair, or 'last digits'."""
    w, g = norm(want["out"]).splitlines(), norm(got["out"]).splitlines()
    if want["err"] == got["err"] and rounded("\n".join(w)) == rounded("\n".join(g)):
        return "last digits only"
    for a, b in zip(w, g):
        if a != b:
            return f"out: {a[:70]!r} vs {b[:70]!r}"
    if len(w) != len(g) and want["err"] == got["err"]:
        return f"out: {(w[len(g)] if len(w) > len(g) else '(end)')[:70]!r} vs {(g[len(w)] if len(g) > len(w) else '(end)')[:70]!r}"
    return f"err: {want['err'][:80]!r} vs {got['err'][:80]!r}"


def diff_text(want, got):
    import difflib
    lines = list(difflib.unified_diff(norm(want["out"]).splitlines(), norm(got["out"]).splitlines(),
                                      "pytorch", "gradrepl", lineterm="", n=1))
    if want["err"] != got["err"]:
        lines += [f"  pytorch error:  {want['err'] or '(none)'} (line {want['line']})",
                  f"  gradrepl error: {got['err'] or '(none)'} (line {got['line']})"]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="number of programs")
    ap.add_argument("--seed", type=int, default=0, help="generator seed (same seed, same programs)")
    ap.add_argument("--torch", default=TORCH_PY, help="python with torch 2.13 (the oracle)")
    ap.add_argument("--show", type=int, default=5, help="print this many differing programs in full")
    ap.add_argument("--save", help="write differing programs to this directory")
    ap.add_argument("--kind", default="mix", choices=["autograd", "learner", "mix"], help="which generator")
    ap.add_argument("--buckets", action="store_true", help="group differences by their first differing line")
    ap.add_argument("--print", dest="print_only", action="store_true", help="print the programs and stop")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    programs = generate(args.seed, args.n, args.kind)
    if args.print_only:
        for i, src in enumerate(programs):
            print(f"# --- program {i}\n{src}")
        return 0
    wants = run_torch(programs, args.torch)
    bad = 0
    crashed = 0
    buckets = {}
    for i, (src, want) in enumerate(zip(programs, wants)):
        if want is None:
            crashed += 1
            continue
        got = run_gradrepl(src)
        problems = compare(want, got)
        if not problems:
            continue
        bad += 1
        buckets.setdefault(bucket(want, got), []).append(i)
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            pathlib.Path(args.save, f"d{args.seed}_{i:04d}.py").write_text(src)
        if bad <= args.show:
            print(f"=== program {i} (seed {args.seed}): {', '.join(problems)}\n{src}{diff_text(want, got)}\n")
    if args.buckets:
        for key, ids in sorted(buckets.items(), key=lambda kv: -len(kv[1])):
            print(f"{len(ids):4d}  {key}   e.g. {ids[:6]}")
    print(f"difftest: {len(programs) - bad - crashed}/{len(programs) - crashed} programs match PyTorch "
          f"(seed {args.seed}; {crashed} crashed PyTorch itself and were skipped)")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
