"""Runtime pieces the compiled closures call: budgets, capped arithmetic and
formatting, bulk iteration with caps, and the sandbox function objects.

Every helper reads its caps from gradrepl.limits.LIMITS, which run_source sets
from the session's limits before each run.
"""
import math
import operator
import re
import time

from gradrepl.errors import BudgetExceeded
from gradrepl.lang.policy import MAX_FORMAT_WIDTH
from gradrepl.limits import LIMITS

MISSING = object()
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
    r = a + b
    if type(r) in _SEQ_TYPES and len(r) > LIMITS.max_items:
        raise items_exceeded(len(r))
    return r


def mod(a, b):
    if type(a) is str:
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
    if type(a) is str:
        return percent_format(a, b)
    return operator.imod(a, b)


BINOPS = {
    "Add": add, "Sub": operator.sub, "Mult": mul, "Div": operator.truediv,
    "FloorDiv": operator.floordiv, "Mod": mod, "Pow": power, "LShift": lshift,
    "RShift": operator.rshift, "BitOr": operator.or_, "BitXor": operator.xor,
    "BitAnd": operator.and_, "MatMult": operator.matmul,
}

INPLACE = {
    "Add": iadd, "Sub": operator.isub, "Mult": imul, "Div": operator.itruediv,
    "FloorDiv": operator.ifloordiv, "Mod": imod, "Pow": ipow, "LShift": ilshift,
    "RShift": operator.irshift, "BitOr": operator.ior, "BitXor": operator.ixor,
    "BitAnd": operator.iand, "MatMult": operator.imatmul,
}


# --- text of containers ------------------------------------------------------------------

_CONTAINERS = frozenset({list, tuple, set, frozenset, dict})
# type -> estimate of its printed length (the session registers the engine's Tensor).
TEXT_SIZES = {}


def check_text(obj):
    """Refuse to build the text of a container that would be longer than the output cap.

    Shared and nested references make a repr grow far beyond the items' count
    ([a] * 10**7 of a long list), so count what the text would hold before building it.
    """
    what = type(obj).__name__
    if isinstance(obj, BaseException):
        obj = obj.args          # an exception prints its arguments
    if type(obj) not in _CONTAINERS:
        return
    limit = LIMITS.max_output
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
        elif t is str:
            n += len(o) + 2
        else:
            sizer = TEXT_SIZES.get(t)
            n += sizer(o) if sizer is not None else 1
        if n > limit:
            break
    if n > limit:
        raise BudgetExceeded(
            "output", f"output limit exceeded: the text of this {what} would be "
            f"longer than {limit} characters (raise it with --max-output)", "--max-output")


def safe_str(obj):
    check_text(obj)
    return str(obj)


def safe_repr(obj):
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
    check_text(value)
    return format(value, spec)


_PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
                      r"(?:\.(?P<prec>\*|\d*))?[hlL]?(?P<type>.)?", re.S)


def percent_format(template: str, args):
    """`template % args` with widths, precisions and `*` arguments capped."""
    positional = args if type(args) is tuple else (args,)
    for arg in positional:
        check_text(arg)
    i = 0
    for m in _PERCENT.finditer(template):
        if m.group("type") == "%":
            continue
        for part in ("width", "prec"):
            text = m.group(part)
            if text == "*":
                if i < len(positional) and isinstance(positional[i], int) \
                        and abs(positional[i]) > MAX_FORMAT_WIDTH:
                    raise ValueError(f"format width or precision {positional[i]} is over "
                                     f"gradrepl's limit of {MAX_FORMAT_WIDTH}")
                i += 1
            elif text:
                _check_spec_numbers(text)
        i += 1
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
