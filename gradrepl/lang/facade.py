"""What user code sees of the host: read-only module facades (`torch`, `math`),
`type(x)` stand-ins, custom autograd Function classes, and the attribute rule.

Nothing here hands a host module, class, frame or function to user code.
"""
import math
import sys
import types
from _string import formatter_parser   # string.Formatter.parse, without string's import

from gradrepl.lang.classes import PUBLIC, USER, as_class_value, class_attr, host_public, \
    bound_method, is_subclassable, is_user_class, is_user_instance, method, owner_of, super_proxy, \
    tensor_builtin_method
from gradrepl.lang.errors import suggest
from gradrepl.lang.policy import EXCEPTION_ATTRS, EXCEPTIONS, CAPPED, METHODS, TYPE_ATTRS
from gradrepl.lang.runtime import builtin_function_or_method, format_value, function, \
    materialize, mul, items_exceeded, bits_exceeded, safe_ascii, safe_repr, safe_str, \
    range_count, range_index, REFUSALS
from gradrepl.limits import LIMITS
from gradrepl.messages import msg

# C-level callables print as "<built-in method ...>" with their host object: handed out wrapped.
HOST_CALLABLES = frozenset({types.BuiltinFunctionType, types.MethodWrapperType,
                            types.WrapperDescriptorType, types.MethodDescriptorType})
# Host Python functions and bound methods (a library object's methods): handed out wrapped too.
HOST_FUNCTIONS = HOST_CALLABLES | {types.FunctionType, types.MethodType}

LATER_MESSAGE = "is not available in gradrepl yet (torch.nn modules and torch.optim come later)"


def _hinted(exc, hint):
    if hint:
        exc.gradrepl_hint = hint
    return exc


class module:
    """A read-only module facade; its repr avoids looking like a host module.

    `module(name, build=fn)` is made at once and filled on first use: `entries` stays unset
    until something reads it, then fn() makes it (torch.nn, torch.optim, torch.utils, math
    and random: their code and tables cost start-up time that most scripts never use). Unset
    slot -> __getattr__ -> build, once; after that the slot answers as for any module."""

    __slots__ = ("name", "entries", "later", "build")

    def __init__(self, name, entries=None, later=False, build=None):
        self.name = name
        if build is None:
            self.entries = entries
        self.later = later
        self.build = build

    def __getattr__(self, attr):
        if attr != "entries" or self.build is None:
            raise AttributeError(attr)
        self.entries = entries = self.build()
        self.build = None
        return entries

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
                          best and msg("hint.did_you_mean", "en", name=f"{self.name}.{best}")) from None
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

    def __call__(self, *args, **kwargs):
        from gradrepl.engine.util import warn
        warn("DeprecationWarning", f"{self!r} should not be instantiated. Methods on autograd functions are all "
             "static, so you should invoke them on the class itself. Instantiating an autograd function will raise "
             "an error in a future version of PyTorch.")
        return legacy_function(self)


autograd_function.__name__ = "FunctionMeta"


class legacy_function:
    """`Name()` of a learner's autograd Function: PyTorch makes an instance (with a warning)
    whose `apply` works and whose call is the legacy-style error."""

    __slots__ = ("cls",)

    def __init__(self, cls):
        self.cls = cls

    def __repr__(self):
        return f"<__main__.{self.cls.name} object at {id(self):#x}>"

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")


def _int_from_bytes(data, byteorder="big", *, signed=False):
    """int.from_bytes with the integer-size budget checked before the conversion."""
    if type(data) not in (bytes, bytearray):
        data = materialize(data, None)     # never an unbounded loop in C (range(10**12))
    if len(data) * 8 > LIMITS.max_int_bits:
        raise bits_exceeded(len(data) * 8)
    return int.from_bytes(data, byteorder, signed=signed)


# PyTorch's C types: Python's messages name them by their full tp_name ('torch.Size' object ...)
_C_TYPE_NAMES = frozenset(("torch.Size", "torch.dtype", "torch.device", "torch.layout", "torch.memory_format",
                           "torch.finfo", "torch.iinfo"))


def type_label(obj, api):
    """The type name Python's own messages give obj ('Tensor', 'Parameter', 'torch.Size', 'int')."""
    if isinstance(obj, type):
        return "type"       # never the name of a host metaclass
    name = api.type_name(obj)
    if name:   # C struct sequences (torch.return_types.max) go by their full name
        if name.startswith("torch.return_types.") or name in _C_TYPE_NAMES:
            return name
        if name == "torch.Tensor" and api.is_parameter(obj):
            return "Parameter"
        return name.rsplit(".", 1)[-1]
    return type(obj).__name__


class Access:
    """The attribute rule: read, write and delete attributes named in source."""

    def __init__(self, api):
        self.api = api
        self.unavailable = (getattr(api, "Unavailable", Later), Later)
        self.cache = {}     # engine type -> frozenset of readable names (types with fixed lists)
        self.plain = set()  # learner's classes with no host base but object (fast reads)
        self.set_cache = {}  # engine type -> frozenset of assignable names (Tensor: grad, data, ...)

    def type_label(self, obj):
        """The name Python's messages give obj's type (full names for PyTorch's C types)."""
        return type_label(obj, self.api)

    def short_label(self, obj):
        """The short class name (Size, Tensor) that labels the engine's methods: <function Size.count>."""
        name = None if isinstance(obj, type) else self.api.type_name(obj)
        if name and not name.startswith("torch.return_types."):
            return name.rsplit(".", 1)[-1]
        return type_label(obj, self.api)

    def no_attr(self, obj, name, candidates=()):
        label = self.type_label(obj)
        best = suggest(name, candidates)
        return _hinted(AttributeError(f"'{label}' object has no attribute '{name}'"),
                       best and msg("hint.did_you_mean", "en", name=f".{best}"))

    def get(self, obj, name):
        t = type(obj)
        allowed = self.cache.get(t)
        if allowed is not None:
            if name in allowed:
                value = getattr(obj, name)
                if type(value) in HOST_CALLABLES:
                    return builtin_function_or_method(value, f"{self.short_label(obj)}.{name}")
                if type(value) is types.MethodType:   # a tensor's method, not called here: never the host one
                    return bound_method(value.__func__, value.__self__, name)
                return value
            raise self.no_attr(obj, name, allowed)
        if t in self.plain:
            # a learner's class over `object`: every public name on it is the learner's
            try:
                return getattr(obj, name)
            except AttributeError:
                raise self.no_attr(obj, name, self.instance_names(obj)) from None
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
        if t is legacy_function:
            obj = obj.cls
            t = autograd_function
        if t is autograd_function:
            if name == "apply":
                return obj.engine_obj.apply
            if name in obj.methods:
                return obj.methods[name]
            raise AttributeError(f"type object '{obj.name}' has no attribute '{name}'")
        if t is super_proxy:
            return self.get_super(obj, name)
        if t is pytype:
            if name not in TYPE_ATTRS.get(obj.host, ()):
                raise AttributeError(f"type object '{obj.name}' has no attribute '{name}'")
            value = getattr(obj.host, name)
            if (obj.host, name) == (int, "from_bytes"):
                value = _int_from_bytes
            return builtin_function_or_method(value, f"{obj.name}.{name}")
        if is_user_instance(obj) or getattr(t, PUBLIC, None) is not None:
            return self.get_instance(obj, name)    # a user class's instance, nn.Linear, ...
        if is_user_class(obj):
            return self.get_class(obj, name)
        if isinstance(obj, type):
            if name in getattr(obj, "gradrepl_class_public", ()):   # nn.Transformer's static methods, prune's apply
                return self.outward(getattr(obj, name), f"{obj.__name__}.{name}")
            raise AttributeError(f"type object '{obj.__name__}' has no attribute '{name}'")
        if isinstance(obj, BaseException):
            if name in EXCEPTION_ATTRS:
                return getattr(obj, name)
            raise self.no_attr(obj, name, EXCEPTION_ATTRS)
        readable = self.api.public_attrs(obj)
        if readable is None:
            raise self.no_attr(obj, name)
        if self.api.settable_attrs(obj) is not None:
            if t not in getattr(self.api, "ADAPTED_METHODS", ()):   # those are read through read_attr
                self.cache[t] = readable
        elif name in getattr(obj, "__dict__", ()):
            return obj.__dict__[name]    # a free attribute user code set (custom Function ctx)
        if name in readable:
            read = getattr(self.api, "read_attr", None)
            value = getattr(obj, name) if read is None else read(obj, name)
            if type(value) in HOST_CALLABLES:
                return builtin_function_or_method(value, f"{self.short_label(obj)}.{name}")
            if type(value) is types.MethodType:
                return bound_method(value.__func__, value.__self__, name)
            return value
        raise self.no_attr(obj, name, readable)

    # --- the learner's classes and library objects (gradrepl.lang.classes) ---------------

    def get_instance(self, obj, name):
        """An attribute of a user class's instance or a library object (nn.Linear): what the
        learner set or defined, what the host sets up dynamically (a module's parameters),
        and the public names of the host part; never another host attribute."""
        cls = type(obj)
        if cls not in self.plain and all(USER in k.__dict__ for k in cls.__mro__[:-1]):
            self.plain.add(cls)
        owner = owner_of(cls, name)
        if owner is not None and USER not in owner.__dict__ and name not in host_public(cls):
            inst = getattr(obj, "__dict__", None)
            if inst is None or name not in inst:
                raise self.no_attr(obj, name, self.instance_names(obj))
        try:
            value = getattr(obj, name)
        except AttributeError:
            raise self.no_attr(obj, name, self.instance_names(obj)) from None
        return self.outward(value, f"{cls.__name__}.{name}")

    def instance_names(self, obj):
        cls = type(obj)
        names = set(host_public(cls))
        names.update(k for k in getattr(obj, "__dict__", ()) if isinstance(k, str))
        for k in cls.__mro__:
            if USER in k.__dict__:
                names.update(k.__dict__)
        return sorted(n for n in names if not n.startswith("_"))

    def get_class(self, cls, name):
        owner = owner_of(cls, name)
        if owner is not None and USER not in owner.__dict__ and name in owner.__dict__.get("gradrepl_class_public", ()):
            return self.outward(getattr(cls, name), f"{cls.__name__}.{name}")   # prune's Method.apply
        if owner is None or USER not in owner.__dict__ or name.startswith("_"):
            raise AttributeError(f"type object '{cls.__name__}' has no attribute '{name}'")
        return class_attr(cls, owner, name)

    def get_super(self, proxy, name):
        obj = proxy.obj
        on_class = isinstance(obj, type)        # super() inside a classmethod
        cls = obj if on_class else type(obj)
        owner = owner_of(cls, name, cls.__mro__.index(proxy.cls) + 1)
        if owner is not None and USER in owner.__dict__:
            raw = owner.__dict__[name]
            getter = getattr(type(raw), "__get__", None)
            if getter is None:
                return raw
            return getter(raw, None, cls) if on_class else getter(raw, obj, cls)
        if on_class:
            raise AttributeError(f"'super' object has no attribute '{name}'")
        if owner is None or owner is object and name != "__init__" or \
                (name != "__init__" and name not in host_public(cls)):
            raise AttributeError(f"'super' object has no attribute '{name}'")
        return self.outward(getattr(super(proxy.cls, obj), name), f"{owner.__name__}.{name}")

    def get_init(self, obj):
        """`X.__init__` in a call (super().__init__(...), nn.Module.__init__(self))."""
        if type(obj) is super_proxy:
            return self.get_super(obj, "__init__")
        if is_user_class(obj) or is_subclassable(obj):
            owner = owner_of(obj, "__init__")
            if USER in owner.__dict__:
                return owner.__dict__["__init__"].fn
            host_init = owner.__dict__["__init__"]

            def init(self, *args, **kwargs):
                if not isinstance(self, obj):
                    raise TypeError(f"descriptor '__init__' requires a '{obj.__name__}' object "
                                    f"but received a '{type(self).__name__}'")
                return host_init(self, *args, **kwargs)
            return builtin_function_or_method(init, f"{owner.__name__}.__init__")
        if is_user_instance(obj):
            return self.outward(obj.__init__, f"{type(obj).__name__}.__init__")
        raise AttributeError("attribute '__init__' is not available in gradrepl (names "
                             "starting with '_' are refused)")

    @staticmethod
    def outward(value, label):
        if type(value) is types.MethodType and type(value.__func__) is types.FunctionType:
            return method(value.__func__, value.__self__)   # <bound method Module.train of ..>
        if type(value) in HOST_FUNCTIONS:
            return builtin_function_or_method(value, label)
        return value

    def check_instance_set(self, obj, name):
        cls = type(obj)
        owner = owner_of(cls, name)
        if owner is not None and owner is not object and USER not in owner.__dict__ \
                and name not in host_public(cls) \
                and name not in getattr(obj, "__dict__", ()):
            raise AttributeError(f"cannot assign to attribute '{name}' of '{cls.__name__}' "
                                 f"object: it is read-only in gradrepl")

    def check_set(self, obj, name):
        t = type(obj)
        if is_user_instance(obj) or getattr(t, PUBLIC, None) is not None:
            self.check_instance_set(obj, name)
            return
        if is_user_class(obj):
            return
        if t is module:
            raise AttributeError(f"cannot assign to '{obj.name}.{name}': modules are read-only "
                                 f"in gradrepl")
        if self.api.public_attrs(obj) is not None:
            settable = self.api.settable_attrs(obj)
            if settable is not None:
                self.set_cache[t] = settable
            if settable is None or name in settable:
                return
        label = self.type_label(obj)
        raise AttributeError(f"cannot assign to attribute '{name}' of '{label}' object: it is "
                             f"read-only in gradrepl")

    def set(self, obj, name, value):
        allowed = self.set_cache.get(type(obj))
        if allowed is not None and name in allowed:   # `p.grad = None` in a training loop
            setattr(obj, name, value)
            return
        self.check_set(obj, name)
        if is_user_class(obj):
            value = as_class_value(value)
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
    elif name == "format":
        def run(*args, **kwargs):
            return str_format(obj, args, kwargs)
    elif name in ("append", "insert"):
        def run(*args):
            check(len(obj) + 1)
            return method(*args)
    else:  # sort: a key function is user code, which ticks the budget itself
        def run(*, key=None, reverse=False):
            return method(key=key, reverse=reverse)
    run.__name__ = run.__qualname__ = name
    return run


_CONVERSIONS = {None: None, "s": safe_str, "r": safe_repr, "a": safe_ascii}


def str_format(template, args, kwargs, depth=2, auto=None):
    """template.format(*args, **kwargs) through the one capped formatter: fields are positions
    or names (no `.attr` or `[index]` lookups inside a field), specs may nest one level."""
    out = []
    total = 0
    if auto is None:
        auto = [0, None]    # next automatic index; 'auto' / 'manual' once decided
    try:
        parsed = list(formatter_parser(template))
    except ValueError as e:
        raise ValueError(str(e)) from None
    for literal, field, spec, conversion in parsed:
        out.append(literal)
        total += len(literal)
        if field is None:
            continue
        if "." in field or "[" in field:
            raise ValueError(f"'{{{field}}}': attribute and index lookups inside str.format "
                             f"fields are not supported in gradrepl (pass the value itself)")
        if field == "":
            if auto[1] == "manual":
                raise ValueError("cannot switch from manual field specification to automatic "
                                 "field numbering")
            auto[1] = "auto"
            field = str(auto[0])
            auto[0] += 1
        elif field.isdigit():
            if auto[1] == "auto":
                raise ValueError("cannot switch from automatic field numbering to manual "
                                 "field specification")
            auto[1] = "manual"
        if field.isdigit():
            i = int(field)
            if i >= len(args):
                raise IndexError(f"Replacement index {i} out of range for positional args tuple")
            value = args[i]
        else:
            if field not in kwargs:
                raise KeyError(field)
            value = kwargs[field]
        if conversion not in _CONVERSIONS:
            raise ValueError(f"Unknown conversion specifier {conversion}")
        if conversion is not None:
            value = _CONVERSIONS[conversion](value)
        if spec and "{" in spec:
            if depth <= 1:
                raise ValueError("Max string recursion exceeded")
            spec = str_format(spec, args, kwargs, depth - 1, auto)
        text = format_value(value, spec or "")
        total += len(text)
        if total > LIMITS.max_items:
            raise items_exceeded(total)
        out.append(text)
    return "".join(out)


# --- type(x) and isinstance ---------------------------------------------------------------

_STANDINS = {}
_SANDBOX = []


def _sandbox():
    """gradrepl.nn.sandbox once the library (torch.nn, optim, utils.data: all built on
    gradrepl.nn.module) is loaded; None before, when none of its objects can exist."""
    if not _SANDBOX:
        if "gradrepl.nn.module" not in sys.modules:
            return None
        from gradrepl.nn import sandbox
        _SANDBOX.append(sandbox)
    return _SANDBOX[0]


def standin(name):
    s = _STANDINS.get(name)
    if s is None:
        s = _STANDINS[name] = type_standin(name)
    return s


def type_of(obj, api, pytypes, tensor_type):
    t = type(obj)
    if t in pytypes:
        return pytypes[t]
    library = _sandbox()
    lib = library.type_of(obj) if library is not None else None
    if lib is not None:
        return lib
    if api.is_tensor(obj):
        return tensor_type
    name = api.type_name(obj)
    if name:
        return standin(name)
    if is_user_instance(obj) or isinstance(obj, Random):
        return t
    if t is legacy_function:
        return obj.cls
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
    if t is super_proxy:
        return standin("super")
    if t is method:
        return standin("method")
    if t is tensor_builtin_method:
        return standin("builtin_function_or_method")
    if t in (pytype, type_standin, autograd_function) or isinstance(obj, type):
        return standin("builtins.type")   # not "<class 'type'>": that names the host metaclass
    if t.__module__ == "collections":      # a state_dict's OrderedDict
        return standin(f"collections.{t.__name__}")
    return standin(t.__name__)


def isinstance_of(obj, spec, api, tensor_type):
    if type(spec) is tuple:
        return any(isinstance_of(obj, s, api, tensor_type) for s in spec)
    if spec is tensor_type:
        return bool(api.is_tensor(obj))
    if api.is_legacy_tensor_type(spec):     # torch.FloatTensor & co.: a tensor of that dtype
        return spec.matches(obj)
    if type(spec) is pytype:
        return isinstance(obj, spec.host)
    if type(spec) is type_standin:
        return type_of(obj, api, {}, tensor_type) is spec
    if type(spec) is api.TypeStandIn:        # torch.dtype, torch.layout, torch.memory_format
        return api.type_name(obj) == spec.path
    if spec is api.TORCH.get("device"):      # the torch.device constructor stands for its class
        return api.type_name(obj) == "torch.device"
    if type(spec) is autograd_function:
        return type(obj) is legacy_function and obj.cls is spec
    if spec is api.TORCH["autograd"]["Function"]:
        return type(obj) is legacy_function
    if spec is api.TORCH["autograd"]["Variable"]:   # PyTorch's VariableMeta: every tensor is a Variable
        return bool(api.is_tensor(obj))
    library = _sandbox()
    if spec in EXCEPTIONS or (library is not None and library.is_library_class(spec)):
        return isinstance(obj, spec)
    if isinstance(spec, type) and (is_user_class(spec) or is_subclassable(spec) or issubclass(spec, Random)):
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
    return module("math", build=_math_entries)


def _math_entries():
    entries = {name: getattr(math, name) for name in ("pi", "e", "tau", "inf", "nan")}
    for name in _MATH_PLAIN:
        entries[name] = builtin_function_or_method(getattr(math, name), f"math.{name}")
    for name, fn in (("factorial", _factorial), ("comb", _comb), ("perm", _perm),
                     ("prod", _prod), ("lcm", _lcm), ("fsum", _fsum)):
        fn.__name__ = fn.__qualname__ = name
        entries[name] = builtin_function_or_method(fn, f"math.{name}")
    return entries


# --- the random facade ---------------------------------------------------------------------

_RANDOM_PLAIN = ("seed", "random", "uniform", "randint", "randrange", "choice", "gauss",
                 "normalvariate", "lognormvariate", "expovariate", "triangular", "betavariate",
                 "gammavariate", "vonmisesvariate", "paretovariate", "weibullvariate")


def random_facade(budget=None):
    """`import random`: CPython's numbers. The module's functions are the methods of a
    hidden instance of random.Random, as in CPython; `random.Random(x)` makes another."""
    return module("random", build=lambda: _random_entries(budget))


def _check_items(n):
    if isinstance(n, int) and n > LIMITS.max_items:
        raise items_exceeded(n)


class Random:
    """random.Random(x=None): a generator of its own drawing CPython's numbers (a private
    host random.Random inside, never handed out). Each session makes a subclass carrying
    its budget (`_random_entries`)."""

    __slots__ = ("generator",)
    budget = None
    gradrepl_public = frozenset(_RANDOM_PLAIN + ("shuffle", "sample", "choices", "getrandbits", "getstate",
                                                 "setstate"))

    def __init__(self, x=None):
        import random
        self.generator = random.Random(x)

    def shuffle(self, x):
        if self.budget is not None and hasattr(x, "__len__"):
            self.budget.charge(len(x) // 4 + 1)
        return self.generator.shuffle(x)

    def sample(self, population, k, *, counts=None):
        _check_items(k)
        return self.generator.sample(population, k, counts=counts)

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        _check_items(k)
        return self.generator.choices(population, weights, cum_weights=cum_weights, k=k)

    def getrandbits(self, k):
        if isinstance(k, int) and k > LIMITS.max_int_bits:
            raise bits_exceeded(k)
        return self.generator.getrandbits(k)

    def getstate(self):
        return self.generator.getstate()

    def setstate(self, state):
        return self.generator.setstate(state)


def _delegate(name):
    def call(self, *args, **kwargs):
        return getattr(self.generator, name)(*args, **kwargs)
    call.__name__ = name
    call.__qualname__ = "Random." + name
    return call


for _name in _RANDOM_PLAIN:
    setattr(Random, _name, _delegate(_name))
Random.__module__ = "random"


def _random_entries(budget):
    cls = type("Random", (Random,), {"__slots__": (), "budget": budget, "__module__": "random",
                                     "__qualname__": "Random"})
    rng = cls()
    entries = {name: builtin_function_or_method(getattr(rng, name), f"random.{name}")
               for name in _RANDOM_PLAIN + ("shuffle", "sample", "choices", "getrandbits", "getstate", "setstate")}
    entries["Random"] = cls
    return entries


# --- the numpy facade ----------------------------------------------------------------------

def numpy_facade(api):
    """`import numpy as np`: api.numpy_namespace() behind read-only facades (never NumPy itself)."""

    def wrap(name, mapping):
        entries = {}
        for key, value in mapping.items():
            if isinstance(value, dict):
                entries[key] = wrap(f"{name}.{key}", value)
            elif type(value) is types.FunctionType:
                entries[key] = builtin_function_or_method(value, f"{name}.{key}")
            else:
                entries[key] = value
        return module(name, entries)

    def build():
        entries = wrap("numpy", api.numpy_namespace()).entries
        entries["ndarray"] = standin("gradrepl.ndarray")      # isinstance(a, np.ndarray), type(a) is np.ndarray
        return entries
    return module("numpy", build=build)


# --- the torch facade -----------------------------------------------------------------------

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
                if type(value) is types.FunctionType and "<locals>" in value.__qualname__:
                    # made by a factory (ones, zeros_like): printed with its public name,
                    # never as `_creator.<locals>.create`
                    value.__name__ = value.__qualname__ = key
                entries[key] = value
        return module(name, entries)

    torch = wrap("torch", api.TORCH)
    standins = _host_class_standins(api)
    _hide_host_classes(torch, standins)

    def later(name, namespace):
        """torch.nn, torch.optim, torch.utils: loaded when first used (see module)."""
        def build():
            mod = wrap(name, namespace())
            _hide_host_classes(mod, standins)
            return mod.entries
        return module(name, build=build)

    torch.entries["save"], torch.entries["load"] = _session_files()
    api.TORCH["compile"].module_hook = lambda model: _library("nn").compiled.compile_module(model)
    torch.entries["nn"] = later("torch.nn", lambda: _library("nn").namespace())
    torch.entries["optim"] = later("torch.optim", lambda: _library("optim").namespace())
    def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True,
                        strict=False):
        return _library("nn").utils.functional_call(module, parameter_and_buffer_dicts, args, kwargs,
                                                    tie_weights=tie_weights, strict=strict)
    def stack_module_state(models):
        return _library("nn").utils.stack_module_state(models)
    func = torch.entries["func"].entries     # torch.func's entries written in torch.nn's terms
    func["functional_call"] = builtin_function_or_method(functional_call, "torch.func.functional_call")
    func["stack_module_state"] = builtin_function_or_method(stack_module_state, "torch.func.stack_module_state")
    torch.entries["utils"] = later("torch.utils", lambda: {"data": _library("data").namespace(), **api.TORCH_UTILS})
    torch.entries["distributions"] = later("torch.distributions",
                                           lambda: _library("distributions").namespace())
    return torch


def _session_files():
    """torch.save / torch.load on this session's in-memory files (gradrepl.nn.serialization:
    nothing is written to the disk; "files live in the session")."""
    store = []

    def files():
        if not store:
            from gradrepl.nn.serialization import Files
            store.append(Files())
        return store[0]

    def save(obj, f, pickle_module=None, pickle_protocol=2):
        return files().save(obj, f, pickle_module, pickle_protocol)

    def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None):
        return files().load(f, map_location, pickle_module, weights_only=weights_only, mmap=mmap)

    save.__qualname__ = "save"
    load.__qualname__ = "load"
    return save, load


_LIBRARY = {}


def _library(name):
    """gradrepl.nn, gradrepl.optim or gradrepl.data, imported on first use."""
    lib = _LIBRARY.get(name)
    if lib is None:
        if name == "nn":
            from gradrepl import nn as lib
        elif name == "optim":
            from gradrepl import optim as lib
        elif name == "distributions":
            from gradrepl import distributions as lib
        else:
            from gradrepl import data as lib
        _LIBRARY[name] = lib
    return lib


# Engine classes offered under torch.*: user code sees PyTorch's class names, never the
# engine's module path, and torch.Size(...) is sized before it is built.
_HOST_CLASSES = {"Size": "torch.Size", "set_grad_enabled": "torch.autograd.grad_mode.set_grad_enabled",
                 "no_grad": "torch.autograd.grad_mode.no_grad", "enable_grad": "torch.autograd.grad_mode.enable_grad",
                 "inference_mode": "torch.autograd.grad_mode.inference_mode",
                 "finfo": "torch.finfo", "iinfo": "torch.iinfo", "Generator": "torch._C.Generator",
                 "autocast": "torch.amp.autocast_mode.autocast", "GradScaler": "torch.amp.grad_scaler.GradScaler",
                 "cpu.amp.autocast": "torch.cpu.amp.autocast_mode.autocast",
                 "cpu.amp.GradScaler": "torch.cpu.amp.grad_scaler.GradScaler",
                 "cuda.amp.autocast": "torch.cuda.amp.autocast_mode.autocast",
                 "cuda.amp.GradScaler": "torch.cuda.amp.grad_scaler.GradScaler"}


def _host_class_standins(api):
    standins = {}
    for key, name in _HOST_CLASSES.items():
        host = api.TORCH
        for part in key.split("."):         # "cuda.amp.GradScaler": a class in a nested namespace
            host = host.get(part) if isinstance(host, dict) else None
        if isinstance(host, type):
            fn = _size_maker(api, host) if key == "Size" else getattr(api, "CLASS_MAKERS", {}).get(key, host)
            standins[id(host)] = pytype(host, fn, name)
    return standins


def _hide_host_classes(top, standins):
    stack, seen = [top], set()
    while stack:
        mod = stack.pop()
        for key, value in mod.entries.items():
            if type(value) is module:
                if id(value) not in seen:
                    seen.add(id(value))
                    stack.append(value)
            elif id(value) in standins:
                mod.entries[key] = standins[id(value)]


def host_class_standins(torch):
    """host class -> its stand-in, for type(x) (the session's pytypes)."""
    return {v.host: v for v in torch.entries.values() if type(v) is pytype}


def _size_maker(api, size_class):
    def size(sizes=()):
        items = materialize(sizes, None)        # the item cap before anything is built
        dims = []
        for k, v in enumerate(items):
            if type(v) in (int, bool):
                dims.append(int(v))
            elif api.is_tensor(v) and v.numel() == 1 and not v.is_floating_point():
                dims.append(int(v.item()))
            else:
                what = "Tensor" if api.is_tensor(v) else type(v).__name__
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item {k} is '{what}')")
        return size_class(dims)
    size.__name__ = size.__qualname__ = "Size"
    return size
