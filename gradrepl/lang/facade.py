"""What user code sees of the host: read-only module facades (`torch`, `math`),
`type(x)` stand-ins, custom autograd Function classes, and the attribute rule.

Nothing here hands a host module, class, frame or function to user code.
"""
import math
import types

from gradrepl.lang.errors import suggest
from gradrepl.lang.policy import EXCEPTION_ATTRS, EXCEPTIONS, CAPPED, METHODS
from gradrepl.lang.runtime import builtin_function_or_method, function, materialize, mul, \
    items_exceeded, bits_exceeded, range_count, range_index, REFUSALS
from gradrepl.limits import LIMITS

# C-level callables print as "<built-in method ...>" with their host object: handed out wrapped.
HOST_CALLABLES = frozenset({types.BuiltinFunctionType, types.MethodWrapperType,
                            types.WrapperDescriptorType, types.MethodDescriptorType})

LATER_MESSAGE = "is not available in gradrepl yet (torch.nn modules and torch.optim come later)"


def _hinted(exc, hint):
    if hint:
        exc.gradrepl_hint = hint
    return exc


class module:
    """A read-only module facade; its repr avoids looking like a host module."""

    __slots__ = ("name", "entries", "later")

    def __init__(self, name, entries, later=False):
        self.name = name
        self.entries = entries
        self.later = later

    def __repr__(self):
        return f"<facade module '{self.name}'>"

    def lookup(self, attr, unavailable_type):
        try:
            value = self.entries[attr]
        except KeyError:
            if self.later:
                raise NotImplementedError(f"{self.name}.{attr} {LATER_MESSAGE}") from None
            best = suggest(attr, self.entries)
            raise _hinted(AttributeError(f"module '{self.name}' has no attribute '{attr}'"),
                          best and f"did you mean {self.name}.{best}?") from None
        if type(value) in unavailable_type:
            raise refusal(value)
        return value


class Later:
    """A torch name gradrepl will offer later (torch.optim): any access says so."""

    __slots__ = ("message",)

    def __init__(self, message):
        self.message = message


def refusal(unavailable):
    """The exception an api.Unavailable (or Later) entry carries (counted as a refusal)."""
    REFUSALS[0] += 1
    if type(unavailable) is Later:
        return NotImplementedError(unavailable.message)
    err = getattr(unavailable, "error", None)
    if isinstance(err, BaseException):
        return err
    if callable(err):
        return err()
    return RuntimeError(str(getattr(unavailable, "message", unavailable)))


class type_standin:
    """`type(x)` for objects whose host class must stay hidden: prints like PyTorch's class."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<class '{self.name}'>"


class pytype:
    """A Python value type offered as a builtin (int, str, list, ...): callable, capped."""

    __slots__ = ("host", "fn", "name")

    def __init__(self, host, fn, name):
        self.host = host
        self.fn = fn
        self.name = name

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return f"<class '{self.name}'>"


# Python's own messages name a value's class ("bad operand type for unary -: 'type'"): the
# stand-ins for classes are called what CPython would call them.
type_standin.__name__ = pytype.__name__ = "type"


class autograd_function:
    """`class Name(torch.autograd.Function)`: apply() plus the user's helper methods."""

    __slots__ = ("name", "engine_obj", "methods")

    def __init__(self, name, engine_obj, methods):
        self.name = name
        self.engine_obj = engine_obj
        self.methods = methods

    def __repr__(self):
        return f"<class '__main__.{self.name}'>"


autograd_function.__name__ = "FunctionMeta"


class Access:
    """The attribute rule: read, write and delete attributes named in source."""

    def __init__(self, api):
        self.api = api
        self.unavailable = (getattr(api, "Unavailable", Later), Later)
        self.cache = {}     # engine type -> frozenset of readable names (types with fixed lists)

    def type_label(self, obj):
        name = self.api.type_name(obj)
        if name:
            return name.rsplit(".", 1)[-1]
        return type(obj).__name__

    def no_attr(self, obj, name, candidates=()):
        label = self.type_label(obj)
        best = suggest(name, candidates)
        return _hinted(AttributeError(f"'{label}' object has no attribute '{name}'"),
                       best and f"did you mean .{best}?")

    def get(self, obj, name):
        allowed = self.cache.get(type(obj))
        if allowed is not None:
            if name in allowed:
                value = getattr(obj, name)
                if type(value) in HOST_CALLABLES:
                    return builtin_function_or_method(value, f"{self.type_label(obj)}.{name}")
                return value
            raise self.no_attr(obj, name, allowed)
        return self.get_slow(obj, name)

    def get_slow(self, obj, name):
        t = type(obj)
        if t is module:
            return obj.lookup(name, self.unavailable)
        methods = METHODS.get(t)
        if methods is not None:
            if name not in methods:
                raise self.no_attr(obj, name, methods)
            value = getattr(obj, name)
            if not callable(value):
                return value
            if (t, name) in CAPPED:
                return builtin_function_or_method(capped_method(obj, name, value),
                                                  f"{t.__name__}.{name}")
            return builtin_function_or_method(value, f"{t.__name__}.{name}")
        if t is autograd_function:
            if name == "apply":
                return obj.engine_obj.apply
            if name in obj.methods:
                return obj.methods[name]
            raise AttributeError(f"type object '{obj.name}' has no attribute '{name}'")
        if isinstance(obj, BaseException):
            if name in EXCEPTION_ATTRS:
                return getattr(obj, name)
            raise self.no_attr(obj, name, EXCEPTION_ATTRS)
        readable = self.api.public_attrs(obj)
        if readable is None:
            raise self.no_attr(obj, name)
        if self.api.settable_attrs(obj) is not None:
            self.cache[t] = readable
        elif name in getattr(obj, "__dict__", ()):
            return obj.__dict__[name]    # a free attribute user code set (custom Function ctx)
        if name in readable:
            value = getattr(obj, name)
            if type(value) in HOST_CALLABLES:
                return builtin_function_or_method(value, f"{self.type_label(obj)}.{name}")
            return value
        raise self.no_attr(obj, name, readable)

    def check_set(self, obj, name):
        if type(obj) is module:
            raise AttributeError(f"cannot assign to '{obj.name}.{name}': modules are read-only "
                                 f"in gradrepl")
        if self.api.public_attrs(obj) is not None:
            settable = self.api.settable_attrs(obj)
            if settable is None or name in settable:
                return
        label = self.type_label(obj)
        raise AttributeError(f"cannot assign to attribute '{name}' of '{label}' object: it is "
                             f"read-only in gradrepl")

    def set(self, obj, name, value):
        self.check_set(obj, name)
        setattr(obj, name, value)

    def delete(self, obj, name):
        self.check_set(obj, name)
        delattr(obj, name)


def capped_method(obj, name, method):
    """Wrap a str/list/set/dict method whose result can outgrow its inputs."""
    def check(n):
        if n > LIMITS.max_items:
            raise items_exceeded(n)

    if type(obj) is range:          # count / index of a non-int: no element-by-element loop
        def run(value):
            return (range_count if name == "count" else range_index)(obj, value)
    elif name in ("center", "ljust", "rjust"):
        def run(width, *rest):
            check(width if isinstance(width, int) else 0)
            return method(width, *rest)
    elif name == "zfill":
        def run(width):
            check(width if isinstance(width, int) else 0)
            return method(width)
    elif name == "expandtabs":
        def run(tabsize=8):
            check(len(obj) + obj.count("\t") * max(int(tabsize), 0))
            return method(tabsize)
    elif name == "replace":
        def run(old, new, count=-1):
            if isinstance(old, str) and isinstance(new, str):
                hits = obj.count(old)
                if count >= 0:
                    hits = min(hits, count)
                check(len(obj) + hits * (len(new) - len(old)))
            return method(old, new, count)
    elif name == "join":
        def run(iterable):
            parts = materialize(iterable, None)
            check(sum(len(p) for p in parts if isinstance(p, str)) + len(obj) * len(parts))
            return method(parts)
    elif name in ("extend", "update", "union"):
        def run(*others):
            total = len(obj)
            lists = []
            for other in others:
                items = materialize(other, None) if type(other) is not dict else other
                total += len(items)
                lists.append(items)
            check(total)
            return method(*lists)
    elif name in ("append", "insert"):
        def run(*args):
            check(len(obj) + 1)
            return method(*args)
    else:  # sort: a key function is user code, which ticks the budget itself
        def run(*, key=None, reverse=False):
            return method(key=key, reverse=reverse)
    run.__name__ = run.__qualname__ = name
    return run


# --- type(x) and isinstance ---------------------------------------------------------------

_STANDINS = {}


def standin(name):
    s = _STANDINS.get(name)
    if s is None:
        s = _STANDINS[name] = type_standin(name)
    return s


def type_of(obj, api, pytypes, tensor_type):
    t = type(obj)
    if t in pytypes:
        return pytypes[t]
    if api.is_tensor(obj):
        return tensor_type
    name = api.type_name(obj)
    if name:
        return standin(name)
    if t in EXCEPTIONS:
        return t
    if isinstance(obj, BaseException):
        return standin(t.__name__)
    if t is function:
        return standin("function")
    if t is builtin_function_or_method:
        return standin("builtin_function_or_method")
    if t is module:
        return standin("module")
    if t in (pytype, type_standin, autograd_function) or t is type:
        return standin("builtins.type")   # not "<class 'type'>": that names the host metaclass
    return standin(t.__name__)


def isinstance_of(obj, spec, api, tensor_type):
    if type(spec) is tuple:
        return any(isinstance_of(obj, s, api, tensor_type) for s in spec)
    if spec is tensor_type:
        return bool(api.is_tensor(obj))
    if type(spec) is pytype:
        return isinstance(obj, spec.host)
    if type(spec) is type_standin:
        return type_of(obj, api, {}, tensor_type) is spec
    if spec in EXCEPTIONS:
        return isinstance(obj, spec)
    raise TypeError("isinstance() arg 2 must be a type, a tuple of types, or a union")


# --- the math facade ------------------------------------------------------------------------

_MATH_PLAIN = (
    "sqrt", "exp", "expm1", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
    "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "floor", "ceil",
    "trunc", "fabs", "fmod", "copysign", "degrees", "radians", "isclose", "isfinite",
    "isinf", "isnan", "erf", "erfc", "gamma", "lgamma", "remainder", "modf", "frexp",
    "ldexp", "isqrt", "gcd", "pow", "log", "hypot", "dist",
)


def _bits_check(bits):
    if bits > LIMITS.max_int_bits:
        raise bits_exceeded(int(bits))


def _factorial(n):
    if isinstance(n, int) and n > 2:
        _bits_check(n * math.log2(n))
    return math.factorial(n)


def _comb(n, k):
    if isinstance(n, int) and isinstance(k, int) and n > 0:
        _bits_check(n)
    return math.comb(n, k)


def _perm(n, k=None):
    if isinstance(n, int) and n > 2:
        kk = n if k is None else k
        if isinstance(kk, int) and kk > 0:
            _bits_check(min(kk, n) * math.log2(n))
    return math.perm(n, k)


def _prod(iterable, *, start=1):
    result = start
    for x in materialize(iterable, None):
        result = mul(result, x)
    return result


def _lcm(*ints):
    _bits_check(sum(abs(i).bit_length() for i in ints if isinstance(i, int)))
    return math.lcm(*ints)


def _fsum(iterable):
    return math.fsum(materialize(iterable, None))


def math_facade():
    entries = {name: getattr(math, name) for name in ("pi", "e", "tau", "inf", "nan")}
    for name in _MATH_PLAIN:
        entries[name] = builtin_function_or_method(getattr(math, name), f"math.{name}")
    for name, fn in (("factorial", _factorial), ("comb", _comb), ("perm", _perm),
                     ("prod", _prod), ("lcm", _lcm), ("fsum", _fsum)):
        fn.__name__ = fn.__qualname__ = name
        entries[name] = builtin_function_or_method(fn, f"math.{name}")
    return module("math", entries)


# --- the torch facade -----------------------------------------------------------------------

_LATER_NN = ("Module", "Linear", "Sequential", "ReLU", "Sigmoid", "Tanh", "MSELoss",
             "CrossEntropyLoss", "Parameter", "Conv2d", "init")


def torch_facade(api):
    """Wrap api.TORCH's nested dicts in read-only facades (never exposing the dicts)."""

    def wrap(name, mapping):
        entries = {}
        for key, value in mapping.items():
            if isinstance(value, dict):
                entries[key] = wrap(f"{name}.{key}", value)
            elif type(value) in HOST_CALLABLES:
                entries[key] = builtin_function_or_method(value, f"{name}.{key}")
            else:
                entries[key] = value
        return module(name, entries)

    torch = wrap("torch", api.TORCH)
    if "optim" not in torch.entries:
        torch.entries["optim"] = Later(f"torch.optim {LATER_MESSAGE}")
    nn = torch.entries.get("nn")
    if type(nn) is module:
        for key in _LATER_NN:
            nn.entries.setdefault(key, Later(f"torch.nn.{key} {LATER_MESSAGE}"))
    return torch
