"""The sandbox policy of gradrepl's language, in one place.

Everything here is an allow-list: a node type, name, attribute, import or
method that is not listed does not exist for user code.  The interpreter
(gradrepl.lang.compiler) and the runtime helpers (gradrepl.lang.runtime)
consult these tables; nothing else decides what user code may touch.

The rules (see also shared/sandbox/README.md):
1. Only the AST node types below are interpreted; others are "not supported".
2. No name, attribute, keyword or import starting with `_` (a bare `_` is an
   ordinary variable).  Checks run on the parsed AST, whose identifiers
   Python has already NFKC-normalised.
3. Attributes are read only on objects that have an allow-list: engine objects
   (gradrepl.engine.api.public_attrs), gradrepl's own facades, and the Python
   value types in METHODS.  Every other object has no attributes at all.
4. Attribute writes: engine objects per api.settable_attrs; nothing else.
5. Builtins are sandbox wrappers with size caps (gradrepl.lang.builtins);
   the names in BUILTIN_NAMES are the only ones.
6. Imports: only the modules in IMPORTS.
7. Budgets (gradrepl.limits.Limits) are BaseExceptions: user `except`
   clauses never see them; user code may raise Exception subclasses only.
8. Sizes are checked before the work: integer bits, sequence lengths, format
   widths (MAX_FORMAT_WIDTH), the text of containers before it is built.
9. Output: control characters escaped (CONTROL_CHARS); error reports never
   repeat HOST_WORDS, nor a source line that contains them.
"""
import ast
from collections import OrderedDict

# --- node types ---------------------------------------------------------------

STATEMENTS = frozenset({
    ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Pass, ast.If,
    ast.For, ast.While, ast.Break, ast.Continue, ast.FunctionDef, ast.Return,
    ast.With, ast.Try, ast.Raise, ast.Assert, ast.Delete, ast.Import,
    ast.ImportFrom, ast.ClassDef, ast.Nonlocal,
})

EXPRESSIONS = frozenset({
    ast.Constant, ast.Name, ast.Attribute, ast.Subscript, ast.Slice,
    ast.Starred, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp,
    ast.Call, ast.Lambda, ast.List, ast.Tuple, ast.Dict, ast.Set,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.JoinedStr,
    ast.FormattedValue, ast.NamedExpr,
})

# Constructs refused with "<construct> is not supported in gradrepl".
UNSUPPORTED = {
    ast.Yield: "'yield' outside a statement of a function (gradrepl runs `yield value`, "
               "`x = yield value` and `yield from iterable` in a def)",
    ast.YieldFrom: "'yield from' outside a statement of a function",
    ast.Await: "'await'",
    ast.AsyncFunctionDef: "'async def'",
    ast.AsyncFor: "'async for'",
    ast.AsyncWith: "'async with'",
    ast.Global: "'global'",
    ast.Match: "'match'",
    ast.TryStar: "'except*'",
}

# Constant types that may appear in source.
CONSTANT_TYPES = (int, float, complex, str, bool, type(None), type(Ellipsis))


def is_private(name: str) -> bool:
    """Names, attributes and keywords starting with '_' are refused; a bare '_' is allowed."""
    return name.startswith("_") and name != "_"


# --- imports ------------------------------------------------------------------

# Module path -> where it lives in the torch facade (None: the math facade).
IMPORTS = {
    "torch": ("torch",),
    "torch.autograd": ("torch", "autograd"),
    "torch.autograd.functional": ("torch", "autograd", "functional"),
    "torch.autograd.profiler": ("torch", "autograd", "profiler"),
    "torch.autograd.forward_ad": ("torch", "autograd", "forward_ad"),
    "torch.autograd.graph": ("torch", "autograd", "graph"),
    "torch.profiler": ("torch", "profiler"),
    "torch.autograd.function": ("torch", "autograd", "function"),
    "torch.func": ("torch", "func"),
    "torch.functional": ("torch", "functional"),
    "torch.linalg": ("torch", "linalg"),
    "torch.special": ("torch", "special"),
    "torch.fft": ("torch", "fft"),
    "torch.nn": ("torch", "nn"),
    "torch.nn.functional": ("torch", "nn", "functional"),
    "torch.nn.init": ("torch", "nn", "init"),
    "torch.nn.attention": ("torch", "nn", "attention"),
    "torch.nn.utils": ("torch", "nn", "utils"),
    "torch.nn.utils.parametrize": ("torch", "nn", "utils", "parametrize"),
    "torch.nn.utils.prune": ("torch", "nn", "utils", "prune"),
    "torch.optim": ("torch", "optim"),
    "torch.optim.lr_scheduler": ("torch", "optim", "lr_scheduler"),
    "torch.utils": ("torch", "utils"),
    "torch.utils.data": ("torch", "utils", "data"),
    "torch.utils.data.dataset": ("torch", "utils", "data", "dataset"),
    "torch.utils.data.dataloader": ("torch", "utils", "data", "dataloader"),
    "torch.utils.data.sampler": ("torch", "utils", "data", "sampler"),
    "torch.distributions": ("torch", "distributions"),
    "torch.distributions.bernoulli": ("torch", "distributions", "bernoulli"),
    "torch.distributions.categorical": ("torch", "distributions", "categorical"),
    "torch.distributions.constraints": ("torch", "distributions", "constraints"),
    "torch.distributions.distribution": ("torch", "distributions", "distribution"),
    "torch.distributions.exponential": ("torch", "distributions", "exponential"),
    "torch.distributions.independent": ("torch", "distributions", "independent"),
    "torch.distributions.gamma": ("torch", "distributions", "gamma"),
    "torch.distributions.beta": ("torch", "distributions", "beta"),
    "torch.distributions.dirichlet": ("torch", "distributions", "dirichlet"),
    "torch.distributions.cauchy": ("torch", "distributions", "cauchy"),
    "torch.distributions.geometric": ("torch", "distributions", "geometric"),
    "torch.distributions.half_normal": ("torch", "distributions", "half_normal"),
    "torch.distributions.kl": ("torch", "distributions", "kl"),
    "torch.distributions.studentT": ("torch", "distributions", "studentT"),
    "torch.distributions.chi2": ("torch", "distributions", "chi2"),
    "torch.distributions.relaxed_bernoulli": ("torch", "distributions", "relaxed_bernoulli"),
    "torch.distributions.relaxed_categorical": ("torch", "distributions", "relaxed_categorical"),
    "torch.distributions.log_normal": ("torch", "distributions", "log_normal"),
    "torch.distributions.transformed_distribution": ("torch", "distributions", "transformed_distribution"),
    "torch.distributions.transforms": ("torch", "distributions", "transforms"),
    "torch.distributions.mixture_same_family": ("torch", "distributions", "mixture_same_family"),
    "torch.distributions.poisson": ("torch", "distributions", "poisson"),
    "torch.distributions.laplace": ("torch", "distributions", "laplace"),
    "torch.distributions.multinomial": ("torch", "distributions", "multinomial"),
    "torch.distributions.multivariate_normal": ("torch", "distributions", "multivariate_normal"),
    "torch.distributions.normal": ("torch", "distributions", "normal"),
    "torch.distributions.one_hot_categorical": ("torch", "distributions", "one_hot_categorical"),
    "torch.distributions.uniform": ("torch", "distributions", "uniform"),
    "torch.distributions.utils": ("torch", "distributions", "utils"),
    "math": ("math",),
    "random": ("random",),
    "numpy": ("numpy",),
    "numpy.random": ("numpy", "random"),
    "numpy.testing": ("numpy", "testing"),
}

# Real PyTorch modules a learner may reach for that gradrepl does not offer yet.
LATER = ()

# --- builtins -------------------------------------------------------------------

BUILTIN_NAMES = (
    "print", "len", "range", "enumerate", "zip", "abs", "min", "max", "sum",
    "round", "float", "int", "bool", "str", "list", "tuple", "dict", "set",
    "isinstance", "sorted", "reversed", "any", "all", "type", "repr", "format",
    "pow", "divmod", "chr", "ord", "callable", "getattr", "hasattr", "setattr", "delattr",
    "super", "map", "filter", "id", "iter", "next", "bin", "hex", "oct", "hash", "slice", "complex",
)

# torch functions also available without the `torch.` prefix (`y = x**2 * exp(x)`):
# these creation and grad-mode names, plus every op declared `bare` in the engine
# (gradrepl.engine.api.BARE_OPS). Builtins of the same name win (abs, max, min, sum, round, pow).
BARE_TORCH = (
    "tensor", "ones", "zeros", "ones_like", "zeros_like", "full", "full_like", "eye", "empty",
    "arange", "linspace", "rand", "randn", "randint", "randperm", "rand_like", "randn_like",
    "manual_seed", "no_grad", "enable_grad", "set_grad_enabled",
)

# Special methods a learner's class may define (DECISIONS: `__init__` only).  A name added
# here is compiled like any method and put in the class namespace, so Python calls it
# (e.g. "__len__", "__getitem__" for Dataset subclasses, if a ruling allows them).
USER_DUNDERS = frozenset({"__init__"})

# Only in trusted mode (what the learner types at the REPL prompt).
TRUSTED_BUILTIN_NAMES = ("exit", "quit")

# Exception classes user code may name, raise and catch (all Exception subclasses).
EXCEPTIONS = (
    Exception, ArithmeticError, AssertionError, AttributeError, IndexError,
    KeyError, LookupError, NameError, NotImplementedError, OverflowError,
    RuntimeError, TypeError, ValueError, ZeroDivisionError, ImportError, ModuleNotFoundError, StopIteration,
    FileNotFoundError,      # torch.load of a name never saved in the session
)

# --- methods and attributes of Python values ---------------------------------------

# Attribute names user code may read on plain Python values.  Entries in
# CAPPED are wrapped by gradrepl.lang.runtime with a result-size check.
METHODS = {
    str: frozenset({
        "capitalize", "casefold", "center", "count", "endswith", "expandtabs",
        "find", "format", "index", "isalnum", "isalpha", "isascii", "isdecimal",
        "isdigit", "isidentifier", "islower", "isnumeric", "isprintable",
        "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip",
        "partition", "removeprefix", "removesuffix", "replace", "rfind",
        "rindex", "rjust", "rpartition", "rsplit", "rstrip", "split",
        "splitlines", "startswith", "strip", "swapcase", "title", "upper",
        "zfill",
    }),
    list: frozenset({
        "append", "clear", "copy", "count", "extend", "index", "insert", "pop",
        "remove", "reverse", "sort",
    }),
    tuple: frozenset({"count", "index"}),
    dict: frozenset({
        "clear", "copy", "get", "items", "keys", "pop", "popitem", "setdefault",
        "update", "values",
    }),
    set: frozenset({
        "add", "clear", "copy", "difference", "discard", "intersection",
        "isdisjoint", "issubset", "issuperset", "pop", "remove",
        "symmetric_difference", "union", "update",
    }),
    int: frozenset({"bit_length", "conjugate", "real", "imag"}),
    bool: frozenset({"bit_length", "conjugate", "real", "imag"}),
    float: frozenset({"is_integer", "hex", "as_integer_ratio", "conjugate", "real", "imag"}),
    complex: frozenset({"conjugate", "real", "imag"}),
    range: frozenset({"start", "stop", "step", "count", "index"}),
    slice: frozenset({"start", "stop", "step", "indices"}),
}

# Attributes of the builtin types themselves (`float.fromhex(s)`, `int.from_bytes(b, 'big')`,
# `float.hex(x)`): what learners call on the class.
TYPE_ATTRS = {
    int: frozenset({"from_bytes", "bit_length"}),
    float: frozenset({"fromhex", "hex", "is_integer"}),
}
# Module.state_dict() returns an OrderedDict, as PyTorch's does.
METHODS[OrderedDict] = METHODS[dict] | {"move_to_end"}


# Methods whose result can be much larger than their inputs: checked before running.
CAPPED = frozenset({
    (str, "center"), (str, "ljust"), (str, "rjust"), (str, "zfill"),
    (str, "expandtabs"), (str, "replace"), (str, "join"), (str, "format"),
    (list, "extend"), (list, "insert"), (list, "append"), (list, "sort"),
    (set, "update"), (set, "union"), (dict, "update"), (OrderedDict, "update"),
    (range, "count"), (range, "index"),
})

# Attributes of caught exceptions.
EXCEPTION_ATTRS = frozenset({"args"})

# --- formatting ---------------------------------------------------------------

# Width and precision in f-strings, format() and % formatting.
MAX_FORMAT_WIDTH = 1000

# Words that name host internals (dunder names, the FFI module, class namespaces): error
# reports never echo them, nor a source line that contains them.  `__init__` is the one
# dunder a learner writes (def __init__, super().__init__()); the protocol names Python's
# own TypeErrors mention ("type NoneType doesn't define __round__ method", "'int' object
# has no attribute '__getitem__'") name nothing of the host either.
_PROTOCOL = "init|round|len|getitem|setitem|iter|next|index|format|trunc|floor|ceil|enter|exit|contains|bool"
HOST_WORDS = rf"__(?!(?:{_PROTOCOL})__\b)\w*__|\bctypes\b|mappingproxy"

# --- control characters -----------------------------------------------------------

# C0 (except \n and \t), DEL and C1 characters print escaped.
CONTROL_CHARS = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x20), *range(0x7F, 0xA0)]
                 if c not in (0x0A, 0x09)}
