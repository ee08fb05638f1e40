"""Runtime pieces the compiled closures call: budgets, capped arithmetic and
formatting, bulk iteration with caps, and the sandbox function objects.

Every helper reads its caps from gradrepl.limits.LIMITS, which run_source sets
from the session's limits before each run.
"""
import math
import operator
import re
import time
import types

from gradrepl.errors import BudgetExceeded
from gradrepl.lang.policy import MAX_FORMAT_WIDTH
from gradrepl.limits import LIMITS

MISSING = object()
# How many times the sandbox refused something (an import, a host builtin, an unavailable
# torch name): a statement that met a refusal, even one its `except` caught, is not kept
# for :save (issue 15: it would run under real Python).
REFUSALS = [0]


def count_refusal(exc):
    REFUSALS[0] += 1
    return exc
PARENT = object()   # key in a function's local dict: the scope it was defined in
RETVAL = object()   # key in a function's local dict: the value of `return`

# Statement closures return None, or one of these to unwind blocks.
BREAK = object()
CONTINUE = object()
RETURN = object()


_NO_LIMIT = float("inf")    # a budget the prompt, `run FILE` and pipes do not set


class Budget:
    """Steps, wall time, call depth and output of one top-level statement.

    Hot paths tick with `b.countdown -= 1; if b.countdown <= 0: b.refill()`;
    refill() does the accounting and the clock check every CHUNK steps.
    """

    __slots__ = ("countdown", "grant", "used", "max_steps", "deadline", "time_limit",
                 "depth", "max_depth", "output", "max_output", "active")
    CHUNK = 256

    def __init__(self):
        self.start()
        self.active = False

    def start(self):
        """A fresh budget for one top-level statement (or one call from the host)."""
        self.active = True
        self.used = 0
        self.max_steps = _NO_LIMIT if LIMITS.max_steps is None else LIMITS.max_steps
        self.grant = self.countdown = min(self.CHUNK, self.max_steps)
        self.time_limit = LIMITS.time_limit
        self.deadline = _NO_LIMIT if self.time_limit is None else time.monotonic() + self.time_limit
        self.depth = 0
        self.max_depth = LIMITS.max_depth
        self.output = 0
        self.max_output = LIMITS.max_output

    def refill(self):
        self.used += self.grant - self.countdown
        if self.used >= self.max_steps:
            self.grant = self.countdown = 0
            raise BudgetExceeded(
                "steps", f"step budget exhausted: more than {self.max_steps} interpreter steps "
                f"in one statement (raise it with --max-steps)", "--max-steps")
        if time.monotonic() > self.deadline:
            self.grant = self.countdown = 0
            raise time_exceeded(self.time_limit)
        self.grant = self.countdown = min(self.CHUNK, self.max_steps - self.used)

    def charge(self, n: int):
        """Account n steps at once (a builtin working through n items)."""
        self.countdown -= n
        if self.countdown <= 0:
            self.refill()

    def too_deep(self):
        return BudgetExceeded(
            "depth", f"call depth limit exceeded: more than {self.max_depth} nested calls "
            f"(raise it with --max-depth)", "--max-depth")


def time_exceeded(limit):
    return BudgetExceeded(
        "time", f"time limit exceeded: the statement ran longer than {limit:g} s "
        f"(raise it with --time-limit)", "--time-limit")


def items_exceeded(n):
    return BudgetExceeded(
        "items", f"sequence too long: the result would have {n} items, over the limit of "
        f"{LIMITS.max_items} (raise it with --max-items)", "--max-items")


def bits_exceeded(bits):
    return BudgetExceeded(
        "int-bits", f"integer too large: the result would have about {bits} bits, over the limit "
        f"of {LIMITS.max_int_bits} (raise it with --max-int-bits)", "--max-int-bits")


# --- capped arithmetic ---------------------------------------------------------------
# One helper per operator that can blow up; BinOp, AugAssign and pow() all use them.

_INTS = (int, bool)
_SEQS = (str, bytes, list, tuple)
_WATCH_MUL = frozenset({int, bool, str, bytes, list, tuple})
_SEQ_TYPES = frozenset(_SEQS)
_UNIONS = frozenset({set, frozenset, dict, type({}.keys()), type({}.items())})


def _check_len(n):
    if n > LIMITS.max_items:
        raise items_exceeded(n)


def mul(a, b):
    if type(a) in _WATCH_MUL or type(b) in _WATCH_MUL:
        _check_mul(a, b)
    return a * b


def _check_mul(a, b):
    if isinstance(a, _INTS) and isinstance(b, _INTS):
        bits = a.bit_length() + b.bit_length()
        if bits > LIMITS.max_int_bits:
            raise bits_exceeded(bits)
    elif isinstance(a, _SEQS) and isinstance(b, _INTS):
        _check_len(len(a) * max(int(b), 0))
    elif isinstance(b, _SEQS) and isinstance(a, _INTS):
        _check_len(len(b) * max(int(a), 0))


def power(a, b, mod=None):
    if mod is None and isinstance(a, _INTS) and isinstance(b, _INTS) and b > 0 and abs(a) > 1:
        bits = b * math.log2(abs(a))
        if bits > LIMITS.max_int_bits:
            raise bits_exceeded(int(bits))
    if mod is None:
        return a ** b
    return pow(a, b, mod)


def lshift(a, b):
    if isinstance(a, _INTS) and isinstance(b, _INTS) and b > 0 and a:
        bits = a.bit_length() + b
        if bits > LIMITS.max_int_bits:
            raise bits_exceeded(bits)
    return a << b


def add(a, b):
    if isinstance(a, _SEQS) and isinstance(b, _SEQS):
        _check_len(len(a) + len(b))       # before the result is built
    return a + b


def or_(a, b):
    """`a | b`: a set or dict union is refused before it is built."""
    if type(a) in _UNIONS and type(b) in _UNIONS:
        _check_len(len(a) + len(b))
    return a | b


def xor(a, b):
    if type(a) in _UNIONS and type(b) in _UNIONS:
        _check_len(len(a) + len(b))
    return a ^ b


def ior(a, b):
    if type(a) in _UNIONS and type(b) in _UNIONS:
        _check_len(len(a) + len(b))
    return operator.ior(a, b)


def ixor(a, b):
    if type(a) in _UNIONS and type(b) in _UNIONS:
        _check_len(len(a) + len(b))
    return operator.ixor(a, b)


def contains(item, container):
    """`item in container`; a range answers without CPython's element-by-element loop."""
    if type(container) is range:
        return range_contains(container, item)
    return item in container


def _range_int(x):
    """The int a range element equal to x would be; None when none is; MISSING when the
    answer needs a comparison with every element."""
    t = type(x)
    if t is int or t is bool:      # CPython's own constant-time path
        return x
    if t is float:
        return int(x) if x.is_integer() else None
    return MISSING


def range_contains(r, x):
    y = _range_int(x)
    if y is MISSING:
        _check_len(length(r))
        return x in r
    return y is not None and y in r


def range_count(r, x):
    y = _range_int(x)
    if y is MISSING:
        _check_len(length(r))
        return r.count(x)
    return 0 if y is None else r.count(y)


def range_index(r, x):
    if type(x) is int or type(x) is bool:
        return r.index(x)
    y = _range_int(x)
    if y is MISSING:
        _check_len(length(r))
        return r.index(x)
    if y is None or y not in r:
        raise ValueError("sequence.index(x): x not in sequence")
    return (y - r.start) // r.step


def mod(a, b):
    if type(a) in (str, bytes):
        return percent_format(a, b)
    return a % b


def iadd(a, b):
    if type(a) is list:
        b = materialize(b, None) if type(b) is not list else b
        _check_len(len(a) + len(b))
    r = operator.iadd(a, b)
    if type(r) in _SEQ_TYPES and len(r) > LIMITS.max_items:
        raise items_exceeded(len(r))
    return r


def imul(a, b):
    if type(a) in _WATCH_MUL or type(b) in _WATCH_MUL:
        _check_mul(a, b)
    return operator.imul(a, b)


def ipow(a, b):
    if isinstance(a, _INTS) and isinstance(b, _INTS):
        return power(a, b)
    return operator.ipow(a, b)


def ilshift(a, b):
    if isinstance(a, _INTS):
        return lshift(a, b)
    return operator.ilshift(a, b)


def imod(a, b):
    if type(a) in (str, bytes):
        return percent_format(a, b)
    return operator.imod(a, b)


BINOPS = {
    "Add": add, "Sub": operator.sub, "Mult": mul, "Div": operator.truediv,
    "FloorDiv": operator.floordiv, "Mod": mod, "Pow": power, "LShift": lshift,
    "RShift": operator.rshift, "BitOr": or_, "BitXor": xor,
    "BitAnd": operator.and_, "MatMult": operator.matmul,
}

INPLACE = {
    "Add": iadd, "Sub": operator.isub, "Mult": imul, "Div": operator.itruediv,
    "FloorDiv": operator.ifloordiv, "Mod": imod, "Pow": ipow, "LShift": ilshift,
    "RShift": operator.irshift, "BitOr": ior, "BitXor": ixor,
    "BitAnd": operator.iand, "MatMult": operator.imatmul,
}


# --- text of containers ------------------------------------------------------------------

_CONTAINERS = frozenset({list, tuple, set, frozenset, dict})
# type -> estimate of its printed length (the session registers the engine's Tensor).
TEXT_SIZES = {}


def text_size(obj, limit=None):
    """About how many characters str()/repr() of obj would have (stops counting past limit).

    Shared and nested references make a repr grow far beyond the items' count
    ([a] * 10**7 of a long list), so count what the text would hold before building it.
    """
    if limit is None:
        limit = LIMITS.max_output
    if isinstance(obj, BaseException):
        obj = obj.args          # an exception prints its arguments
    n = 0
    stack = [obj]
    while stack:
        o = stack.pop()
        t = type(o)
        if t in _CONTAINERS:
            n += len(o) + 2
            if n > limit:
                break
            if t is dict:
                stack.extend(o.keys())
                stack.extend(o.values())
            else:
                stack.extend(o)
        elif t is str or t is bytes:
            n += len(o) + 2
        elif t is slice:        # slice(start, stop, step) prints what it holds
            n += 19
            stack.extend((o.start, o.stop, o.step))
        elif t is int:
            n += o.bit_length() * 31 // 100 + 2
        else:
            sizer = TEXT_SIZES.get(t)
            n += sizer(o) if sizer is not None else 1
        if n > limit:
            break
    return n


def check_text(obj):
    """Refuse to build the text of a container that would be longer than the output cap."""
    what = type(obj).__name__
    inner = obj.args if isinstance(obj, BaseException) else obj
    if type(inner) is slice:
        inner = (inner.start, inner.stop, inner.step)
    if type(inner) not in _CONTAINERS:
        return
    limit = LIMITS.max_output
    if text_size(inner, limit) > limit:
        raise BudgetExceeded(
            "output", f"output limit exceeded: the text of this {what} would be "
            f"longer than {limit} characters (raise it with --max-output)", "--max-output")


# The torch.* functions PyTorch implements in C (torch.exp, torch.dot, ...), which it prints as
# "<built-in method exp of type object at 0x...>" (or "<built-in function is_grad_enabled>"):
# id -> (name, module-level), filled by the torch facade.
# Ours are Python functions; printed on their own, they print as PyTorch's do.
C_FUNCTIONS = {}
_PY_FUNCTION = types.FunctionType


def _c_function_text(obj):
    name, module_level = C_FUNCTIONS[id(obj)]
    if module_level:
        return f"<built-in function {name}>"
    return f"<built-in method {name} of type object at {id(obj):#x}>"


def safe_str(obj):
    if type(obj) is _PY_FUNCTION and id(obj) in C_FUNCTIONS:
        return _c_function_text(obj)
    check_text(obj)
    return str(obj)


def safe_repr(obj):
    if type(obj) is _PY_FUNCTION and id(obj) in C_FUNCTIONS:
        return _c_function_text(obj)
    check_text(obj)
    return repr(obj)


def safe_ascii(obj):
    check_text(obj)
    return ascii(obj)


# --- one capped formatter ---------------------------------------------------------------

_DIGITS = re.compile(r"\d+")


def _check_spec_numbers(spec: str):
    for run in _DIGITS.findall(spec):
        if len(run) > 4 or int(run) > MAX_FORMAT_WIDTH:
            raise ValueError(f"format width or precision {run} is over gradrepl's limit of "
                             f"{MAX_FORMAT_WIDTH}")


def format_value(value, spec: str = ""):
    """format(value, spec) with width and precision capped; used by f-strings, format() and %."""
    if type(spec) is not str:
        raise TypeError(f"format() argument 2 must be str, not {type(spec).__name__}")
    if spec:
        _check_spec_numbers(spec)
    elif type(value) is _PY_FUNCTION and id(value) in C_FUNCTIONS:
        return _c_function_text(value)
    check_text(value)
    return format(value, spec)


def _directives(template: str):
    """(key, width, precision, type) of each `%` directive, read as CPython reads them
    (a mapping key may hold balanced parentheses: `%(a(b)c)5s`)."""
    n = len(template)
    i = template.find("%")
    while i != -1:
        j = i + 1
        key = None
        if j < n and template[j] == "(":
            depth, k = 1, j + 1
            while k < n and depth:
                depth += {"(": 1, ")": -1}.get(template[k], 0)
                k += 1
            key, j = template[j + 1:k - 1], k
        while j < n and template[j] in "-+ #0":
            j += 1
        parts = []
        for leading in ("", "."):
            if leading:
                if j < n and template[j] == ".":
                    j += 1
                else:
                    parts.append(None)
                    continue
            start = j
            if j < n and template[j] == "*":
                j += 1
            else:
                while j < n and template[j].isdigit():
                    j += 1
            parts.append(template[start:j] or None)
        while j < n and template[j] in "hlL":
            j += 1
        yield key, parts[0], parts[1], template[j] if j < n else None
        i = template.find("%", j + 1)


def percent_format(template, args):
    """`template % args` (str or bytes) with widths, precisions and `*` arguments capped and
    the length of the result checked before it is built."""
    positional = args if type(args) is tuple else (args,)
    mapping = args if type(args) is dict else None
    for arg in positional:
        check_text(arg)
    text = template.decode("latin-1") if type(template) is bytes else template
    total = len(text)
    i = 0
    for key, width, prec, kind in _directives(text):
        if kind == "%":
            continue
        for part in (width, prec):
            if part == "*":
                value = positional[i] if i < len(positional) else None
                if isinstance(value, int) and abs(value) > MAX_FORMAT_WIDTH:
                    raise ValueError(f"format width or precision {value} is over "
                                     f"gradrepl's limit of {MAX_FORMAT_WIDTH}")
                total += abs(value) if isinstance(value, int) else 0
                i += 1
            elif part:
                _check_spec_numbers(part)
                total += int(part)
        if key is not None and mapping is not None:
            arg = mapping.get(key)
        else:
            arg = positional[i] if i < len(positional) else None
            i += 1
        total += text_size(arg, LIMITS.max_items)
        if total > LIMITS.max_items:
            raise items_exceeded(total)
    return template % args


# --- bulk iteration with caps ------------------------------------------------------------

_SIZED = frozenset({list, tuple, str, bytes, range, dict, set, frozenset,
                    type({}.keys()), type({}.values()), type({}.items())})


def materialize(iterable, budget):
    """list(iterable) with the item cap, charging steps; never loops in C unbounded."""
    t = type(iterable)
    cap = LIMITS.max_items
    if t in _SIZED:
        n = length(iterable)
        if n > cap:
            raise items_exceeded(n)
        if budget is not None:
            budget.charge(n // 8 + 1)
        return list(iterable)
    out = []
    append = out.append
    for item in iterable:
        append(item)
        if len(out) > cap:
            raise items_exceeded(len(out))
        if budget is not None:
            budget.countdown -= 1
            if budget.countdown <= 0:
                budget.refill()
    return out


def length(obj):
    """len(obj), also for ranges longer than sys.maxsize."""
    try:
        return len(obj)
    except OverflowError:
        step = obj.step
        return (obj.stop - obj.start + step - (1 if step > 0 else -1)) // step


# --- sandbox callables ----------------------------------------------------------------------

class builtin_function_or_method:
    """A host callable handed to user code: opaque, no attributes, a safe repr."""

    __slots__ = ("fn", "label")

    def __init__(self, fn, label):
        self.fn = fn
        self.label = label

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return f"<function {self.label}>"


class Params:
    """A def's parameters, resolved at compile time."""

    __slots__ = ("names", "posonly", "vararg", "kwonly", "kwarg", "simple", "named")

    def __init__(self, names, posonly, vararg, kwonly, kwarg):
        self.names = tuple(names)
        self.posonly = frozenset(posonly)
        self.vararg = vararg
        self.kwonly = tuple(kwonly)
        self.kwarg = kwarg
        self.simple = vararg is None and kwarg is None and not kwonly
        self.named = frozenset(self.names) | frozenset(self.kwonly)


def _listing(names):
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} and {quoted[1]}"
    return ", ".join(quoted[:-1]) + f", and {quoted[-1]}"


class function:
    """A user-defined function or lambda: callable by the engine (hooks), opaque to user code."""

    __slots__ = ("name", "params", "body", "env", "defaults", "kwdefaults", "budget", "is_expr")

    def __init__(self, name, params, body, env, defaults, kwdefaults, budget, is_expr):
        self.name = name
        self.params = params
        self.body = body
        self.env = env
        self.defaults = defaults
        self.kwdefaults = kwdefaults
        self.budget = budget
        self.is_expr = is_expr

    def __repr__(self):
        return f"<function {self.name} at {id(self):#x}>"

    def __call__(self, *args, **kwargs):
        return self.invoke(args, kwargs)

    def invoke(self, args, kwargs):
        b = self.budget
        if not b.active:
            return self.host_call(args, kwargs)
        b.countdown -= 1
        if b.countdown <= 0:
            b.refill()
        depth = b.depth + 1
        if depth > b.max_depth:
            raise b.too_deep()
        p = self.params
        if not kwargs and p.simple and len(args) == len(p.names):
            local = dict(zip(p.names, args))
        else:
            local = self.bind(args, kwargs)
        local[PARENT] = self.env
        b.depth = depth
        try:
            if self.is_expr:
                return self.body(local)
            if self.body(local) is RETURN:
                return local[RETVAL]
            return None
        finally:
            b.depth = depth - 1

    def host_call(self, args, kwargs):
        """Called by gradrepl itself outside any statement (a hook during :explain): the
        call gets a budget of its own."""
        b = self.budget
        b.start()
        try:
            return self.invoke(args, kwargs)
        finally:
            b.active = False

    def bind(self, args, kwargs):
        p = self.params
        fname = self.name
        names = p.names
        local = {}
        if len(args) > len(names):
            if p.vararg is None:
                given = len(args)
                takes = len(names)
                plural = "" if takes == 1 else "s"
                if self.defaults:   # CPython: "takes from 1 to 2 positional arguments"
                    raise TypeError(f"{fname}() takes from {takes - len(self.defaults)} to {takes} "
                                    f"positional arguments but {given} {'was' if given == 1 else 'were'} given")
                raise TypeError(f"{fname}() takes {takes} positional argument{plural} "
                                f"but {given} {'was' if given == 1 else 'were'} given")
            local[p.vararg] = tuple(args[len(names):])
            args = args[:len(names)]
        elif p.vararg is not None:
            local[p.vararg] = ()
        for name, value in zip(names, args):
            local[name] = value
        extra = {} if p.kwarg is not None else None
        for key, value in kwargs.items():
            if key in p.named and key not in p.posonly:
                if key in local:
                    raise TypeError(f"{fname}() got multiple values for argument '{key}'")
                local[key] = value
            elif extra is not None:
                extra[key] = value
            else:
                raise TypeError(f"{fname}() got an unexpected keyword argument '{key}'")
        first_default = len(names) - len(self.defaults)
        missing = []
        for i, name in enumerate(names):
            if name not in local:
                if i >= first_default:
                    local[name] = self.defaults[i - first_default]
                else:
                    missing.append(name)
        if missing:
            plural = "" if len(missing) == 1 else "s"
            raise TypeError(f"{fname}() missing {len(missing)} required positional "
                            f"argument{plural}: {_listing(missing)}")
        for name in p.kwonly:
            if name not in local:
                if name in self.kwdefaults:
                    local[name] = self.kwdefaults[name]
                else:
                    missing.append(name)
        if missing:
            plural = "" if len(missing) == 1 else "s"
            raise TypeError(f"{fname}() missing {len(missing)} required keyword-only "
                            f"argument{plural}: {_listing(missing)}")
        if extra is not None:
            local[p.kwarg] = extra
        return local


def enter_context(mgr, api, access):
    """`with mgr:` — (its type, what __enter__ returned); only engine and library objects
    that are context managers (no_grad, enable_grad, parametrize.cached, ...) are entered."""
    kind = type(mgr)
    library = "gradrepl_public" in kind.__dict__     # a torch.nn-level class (parametrize.cached)
    if (api.public_attrs(mgr) is None and not library) or not hasattr(kind, "__enter__"):
        raise TypeError(f"'{access.type_label(mgr)}' object does not support the context manager protocol")
    return kind, kind.__enter__(mgr)
