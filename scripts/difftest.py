"""Differential tester: random learner-style PyTorch programs, run under real PyTorch and gradrepl.

Each program is what a learner of the three tutorials might type: tensors of a few shapes
and dtypes, with and without requires_grad; arithmetic with scalars and broadcasting;
unary ops, reductions with dim/keepdim, shape ops, indexing and index assignment;
backward (with a gradient, with retain_graph), .grad reads, hooks, detach, no_grad;
printing of values, grads, grad_fn, shapes, dtypes, item() and tolist(); and mistakes
that raise errors.  The programs run under PyTorch (one oracle process for the whole
batch, the echo semantics of scripts/record_cases.py) and under gradrepl in-process
through run_source; stdout (0x addresses masked), success and the error line are compared.

Usage (from the repo, with the dev venv):
    /work/venv/bin/python scripts/difftest.py --n 300 --seed 1 [--torch PY] [--show K] [--save DIR]
--save writes each differing program to DIR as dNNNN.py for minimising by hand.
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
import ast, contextlib, io, json, sys, warnings
warnings.simplefilter("ignore")
import torch
for src in json.load(sys.stdin):
    out = io.StringIO()
    err, line = "", 0
    ns = {"__name__": "__main__"}
    exec("import torch\nimport math", ns)
    torch.set_grad_enabled(True)
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


def generate(seed, n):
    return [Gen(random.Random(f"{seed}:{i}")).program() for i in range(n)]


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
    out = []
    session = Session(write=out.append)
    api.reset_state()
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
    ap.add_argument("--print", dest="print_only", action="store_true", help="print the programs and stop")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    programs = generate(args.seed, args.n)
    if args.print_only:
        for i, src in enumerate(programs):
            print(f"# --- program {i}\n{src}")
        return 0
    wants = run_torch(programs, args.torch)
    bad = 0
    crashed = 0
    for i, (src, want) in enumerate(zip(programs, wants)):
        if want is None:
            crashed += 1
            continue
        got = run_gradrepl(src)
        problems = compare(want, got)
        if not problems:
            continue
        bad += 1
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            pathlib.Path(args.save, f"d{args.seed}_{i:04d}.py").write_text(src)
        if bad <= args.show:
            print(f"=== program {i} (seed {args.seed}): {', '.join(problems)}\n{src}{diff_text(want, got)}\n")
    print(f"difftest: {len(programs) - bad - crashed}/{len(programs) - crashed} programs match PyTorch "
          f"(seed {args.seed}; {crashed} crashed PyTorch itself and were skipped)")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
