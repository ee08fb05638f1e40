"""PyTorch's messages for a torch.* function or Tensor method called with arguments of the
wrong types: "NAME() received an invalid combination of arguments - got (...), but expected
one of:" for an overloaded name, "NAME(): argument 'P' (position N) must be T, not U" for a
name with one signature.

signatures.json (scripts/record_signatures.py) holds what PyTorch 2.13's argument parser
knows of each name: the signatures of an overloaded one as it prints them, the positional
parameters of the others. `mismatch` is asked only after a call has failed (the session's
call site), so calls that work cost nothing; it answers PyTorch's TypeError when the
arguments fit none of PyTorch's signatures, else None (the call's own error stands).
"""
import re
from pathlib import Path

from gradrepl.engine.dtypes import DType
from gradrepl.engine.tensor import Tensor
from gradrepl.engine.util import got_args, pytype

_TABLE = {}         # signatures.json, read on the first failed call
_PY_ARITY = re.compile(r"^\S+\(\) (takes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:was|were) given)$")
_ALIASES = {"axis": "dim", "keepdims": "keepdim"}   # numpy spellings PyTorch's parser accepts
# the ops whose Tensor arguments PyTorch's parser also takes as Python numbers (torch.add(1, 2))
NUMBERS_AS_TENSORS = frozenset("add div divide mul multiply sub subtract true_divide floor_divide copy to".split())
_PARSED = {}
_FUNCTIONS = {}     # torch.* function object -> its name (api.py registers them)


def _is_int(v):
    return (type(v) is int) or (type(v) is Tensor and v._a.ndim == 0 and v._a.dtype.kind in "iu")


def _is_number(v):
    return type(v) in (int, float, bool, complex) or (type(v) is Tensor and v._a.ndim == 0)


_CHECKS = {
    "Tensor": lambda v: type(v) is Tensor,
    "Number or Tensor": lambda v: type(v) is Tensor or _is_number(v),
    "Number": _is_number,
    "int": _is_int,
    "float": lambda v: type(v) in (int, float, bool) or (type(v) is Tensor and v._a.ndim == 0),
    "bool": lambda v: type(v) is bool or (type(v) is Tensor and v._a.ndim == 0 and v._a.dtype.kind == "b"),
    "str": lambda v: type(v) is str,
    "tuple of ints": lambda v: _is_int(v) or (isinstance(v, (tuple, list)) and all(_is_int(e) for e in v)),
    # an int list declared without a size (int[] dims): no single int (signatures.json's "unsized")
    "int list": lambda v: isinstance(v, (tuple, list)) and all(_is_int(e) for e in v),
    "tuple of floats": lambda v: _is_number(v) or (isinstance(v, (tuple, list)) and all(_is_number(e) for e in v)),
    "tuple of Tensors": lambda v: isinstance(v, (tuple, list)) and all(type(e) is Tensor for e in v),
    "torch.dtype": lambda v: isinstance(v, DType),
}


def _bare_size(kind, name, value):
    """An int given for a `size` list where PyTorch's parser takes no single int: only the
    one positional int list may be given as separate ints (randn(3), not randint(0, 10, 3))."""
    return kind == "tuple of ints" and name == "size" and type(value) is not Tensor and _is_int(value)


def _shown(kind):
    return "Tensor" if kind == "Number or Tensor" else "tuple of ints" if kind == "int list" else kind


_INT_LISTS = ("tuple of ints", "int list")


def _unsized(params, unsized):
    """params (kind first) with the int lists named in `unsized` made "int list"."""
    if not unsized:
        return params
    return [("int list", *p[1:]) if p[0] == "tuple of ints" and p[1] in unsized else p for p in params]


def _fits(kind, value, default):
    if value is None:
        return default == "None"
    check = _CHECKS.get(kind)
    return True if check is None else check(value)


def _parse(sig):
    """'(Tensor input, int dim, *, Tensor out = None)' -> [(kind, name, default, keyword_only)]."""
    found = _PARSED.get(sig)
    if found is None:
        found = []
        keyword_only = False
        for part in sig[1:-1].split(", ") if sig != "()" else ():
            if part == "*":
                keyword_only = True
                continue
            decl, _, default = part.partition(" = ")
            kind, _, name = decl.rpartition(" ")
            found.append((kind, name, default or None, keyword_only))
        _PARSED[sig] = found
    return found


def _binds(params, args, kwargs):
    """Whether args/kwargs fit a signature (PyTorch's parser: positionals in order, an int list
    also given as separate ints, keywords by name, every parameter without default given)."""
    positional = [p for p in params if not p[3]]
    if len(args) > 1 and positional and positional[0][0] in _INT_LISTS and \
            not any(p[2] is None for p in positional[1:]) and all(_is_int(a) for a in args):
        args = (tuple(args),)
    elif len(args) == 1 and len(positional) == 1 and positional[0][0] == "int list" and _is_int(args[0]):
        args = (tuple(args),)     # the one positional int list also as separate ints: x.flip(0)
    if len(args) > len(positional):
        return False
    given = {}
    for p, a in zip(positional, args):
        given[p[1]] = a
    if any(_bare_size(kind, name, given.get(name)) for kind, name, _, _ in positional[1:]):
        return False
    names = {p[1] for p in params}
    for key, value in kwargs.items():
        key = key if key in names else _ALIASES.get(key, key)
        if key not in names or key in given:
            return False
        given[key] = value
        if _bare_size(*next((k, n) for k, n, _, _ in params if n == key), value):
            return False
    return all(_fits(kind, given[name], default) if name in given else default is not None
               for kind, name, default, _ in params)


def _wrong_argument(name, params, args, kwargs, varargs=False):
    """'NAME(): argument ...' for the first argument of the wrong type, or None. varargs: the
    int list is the one positional parameter, so that zeros(2, 3) passes it as separate ints."""
    if varargs and args and _is_int(args[0]):
        for k, a in enumerate(args):
            if not _is_int(a):
                return (f"{name}(): argument '{params[0][0]}' failed to unpack the object at pos {k + 1} with error "
                        f"\"type must be tuple of ints,but got {pytype(a)}\"")
        return None
    for k, (value, (pname, kind)) in enumerate(zip(args, params)):
        if kind == "tuple of Tensors" and isinstance(value, (tuple, list)) and not _fits(kind, value, None):
            bad = next(i for i, e in enumerate(value) if type(e) is not Tensor)
            return f"expected Tensor as element {bad} in argument {k}, but got {pytype(value[bad])}"
        if value is not None and (not _fits(kind, value, None) or (k > 0 and _bare_size(kind, pname, value))):
            if kind in _INT_LISTS and isinstance(value, (tuple, list)):
                bad = next(i for i, e in enumerate(value) if not _is_int(e))
                return (f"{name}(): argument '{pname}' (position {k + 1}) must be tuple of ints, but found element "
                        f"of type {pytype(value[bad])} at pos {bad}")
            return f"{name}(): argument '{pname}' (position {k + 1}) must be {_shown(kind)}, not {pytype(value)}"
    kinds = dict(params)
    for key, value in kwargs.items():
        key = _ALIASES.get(key, key) if key not in kinds else key
        if key in kinds and value is not None and (not _fits(kinds[key], value, None) or _bare_size(kinds[key], key, value)):
            return f"{name}(): argument '{key}' must be {_shown(kinds[key])}, not {pytype(value)}"
    return None


def _which(fn):
    """(name, form) of a torch.* function or a bound Tensor method, else None (through the
    session's wrappers of a host callable, which keep it as `.fn`)."""
    for _ in range(3):
        owner = getattr(fn, "__self__", None)
        if type(owner) is Tensor:
            return getattr(fn, "__name__", None), "method"
        if type(getattr(fn, "obj", None)) is Tensor:      # a tensor's method read as an attribute
            return getattr(fn, "name", None) or getattr(fn.fn, "__name__", None), "method"
        if not hasattr(fn, "fn"):
            break
        fn = fn.fn
    try:
        return _FUNCTIONS.get(fn)
    except TypeError:
        return None


def register_functions(namespace, form="function"):
    """The functions of the torch namespace (form "function") or of torch.nn.functional
    ("functional"), so that a failed call to one is known by its name."""
    for key, value in namespace.items():
        if callable(value) and not isinstance(value, type):
            try:
                _FUNCTIONS.setdefault(value, (key, form))
            except TypeError:       # unhashable
                pass


def register_alias(new, old):
    """`new` calls `old` (a forward-AD wrapper): known by old's name."""
    if old in _FUNCTIONS:
        _FUNCTIONS.setdefault(new, _FUNCTIONS[old])


def mismatch(fn, args, kwargs, error):
    """PyTorch's TypeError for this failed call when its argument types fit none of PyTorch's
    signatures of fn; None when they do, when fn is not a torch function or Tensor method, or
    when the error already says what PyTorch says (it may say more below its first line)."""
    if "in gradrepl" in str(error):     # gradrepl's own refusals (x.map_(f), budgets) stand
        return None
    which = _which(fn)
    wrong = None if which is None else check(*which, args, kwargs)
    if wrong is None and which is not None and which[0].startswith(("linalg_", "special_")):
        m = _PY_ARITY.match(str(error)) if type(error) is TypeError else None
        if m:       # Python's count of arguments, said of a gradrepl function of another name
            return TypeError(f"{which[0]}() {m.group(1)}")
    if wrong is None or str(error).split("\n")[0] == str(wrong).split("\n")[0]:
        return None
    return wrong


_STRICT = {"Number or Tensor": "Tensor"}
# the names with a deprecated scalar-first overload (add_(alpha, other)): the tensors after it
_SCALAR_FIRST = {"add": 1, "sub": 1, "addcmul": 2, "addcdiv": 2}


def _marked(params, args, kwargs):
    """The `got ...` of the one signature PyTorch lists: keywords that are not among its
    positional parameters are "unrecognized" (the last one first), else the positional types
    with each one that does not fit its parameter, or has none, marked `!type!`."""
    positional = [p for p in params if not p[3]]
    unknown = [k for k in reversed(list(kwargs)) if k not in {p[1] for p in positional}]
    if unknown:
        return f"unrecognized keyword arguments: {', '.join(unknown)}"
    shown = []
    for k, a in enumerate(args):
        fits = k < len(positional) and _fits(_STRICT.get(positional[k][0], positional[k][0]), a, positional[k][2])
        shown.append(pytype(a) if fits else f"!{pytype(a)}!")
    return f"({', '.join(shown + [f'{k}={pytype(v)}' for k, v in reversed(list(kwargs.items()))])})"


def check(name, form, args, kwargs):
    """PyTorch's TypeError when args/kwargs fit none of the signatures of torch.NAME (form
    "function"), Tensor.NAME ("method", args without self) or torch.nn.functional.NAME
    ("functional": its first two arguments), else None."""
    if not _TABLE:
        import json     # not at import: an empty script never needs it (tests/cli/test_startup.py)
        _TABLE.update(json.loads(Path(__file__).with_name("signatures.json").read_text(encoding="utf-8")))
    entry = _TABLE[form].get(name)
    if entry is None:
        return None
    if form == "functional":     # the message of the C++ function F.NAME reaches, for position 0 or 1
        for pos in (0, 1):
            kind, text = entry.get(str(pos), (None, None))
            if kind is None:
                continue
            value = args[pos] if pos < len(args) else kwargs.get(text.split("'")[1], None)
            if value is not None and not _fits(kind, value, None):
                return TypeError(text + pytype(value))
        return None
    unsized = entry.get("unsized")
    if "params" in entry:
        params = entry["params"]
        if unsized:
            params = [(p, "int list" if kind == "tuple of ints" and p in unsized else kind) for p, kind in params]
        varargs = len(params) == 1 and params[0][1] in _INT_LISTS
        if len(args) > len(params) and not varargs:     # too many: the call's own arity message stands
            return None
        if name.rstrip("_") in NUMBERS_AS_TENSORS:
            params = [(p, "Number or Tensor" if kind == "Tensor" else kind) for p, kind in params]
        text = _wrong_argument(name, params, args, kwargs, varargs)
        return None if text is None else TypeError(text)
    sigs = entry["overloads"]
    tensors = _SCALAR_FIRST.get(name.rstrip("_"))
    lead = 1 if form == "function" else 0
    if tensors is not None and not kwargs and len(args) == lead + 1 + tensors and \
            type(args[lead]) in (int, float, bool):      # a deprecated overload PyTorch hides from its messages
        return None
    parsed = [_unsized(_parse(s), unsized) for s in sigs]
    if name.rstrip("_") in NUMBERS_AS_TENSORS:
        parsed = [[("Number or Tensor" if k == "Tensor" else k, n, d, o) for k, n, d, o in p] for p in parsed]
    for p in parsed:    # an int list given as separate ints fails at once on a bad one: view(2, 'a')
        positional = [q for q in p if not q[3]]
        if len(positional) == 1 and positional[0][0] in _INT_LISTS and len(args) > 1 and _is_int(args[0]):
            text = _wrong_argument(name, [(positional[0][1], "tuple of ints")], args, {}, True)
            if text is not None:
                return TypeError(text)
    if any(_binds(p, args, kwargs) for p in parsed):
        return None
    # PyTorch's print_error: when one signature alone takes this many arguments, its own message
    count = len(args) + len(kwargs)
    plausible = [p for p in parsed if sum(d is None for _, _, d, _ in p) <= count <= len(p)]
    if len(plausible) == 1:
        params = plausible[0]
        positional = [p for p in params if not p[3]]
        if len(args) > len(positional):     # x.add(y, 2): alpha is keyword-only
            return TypeError(f"{name}() takes {len(positional)} positional argument{'' if len(positional) == 1 else 's'} "
                             f"but {len(args)} were given")
        if all(k in {p[1] for p in params} or _ALIASES.get(k) in {p[1] for p in params} for k in kwargs):
            text = _wrong_argument(name, [(p[1], p[0]) for p in positional] +
                                   [(p[1], p[0]) for p in params if p[3]], args, kwargs,
                                   len(positional) == 1 and positional[0][0] in _INT_LISTS)
            if text is not None:
                return TypeError(text)
    if len(sigs) == 1:
        got = _marked(parsed[0], args, kwargs)
        tail = "" if got.startswith("unrecognized") else f", but expected {sigs[0]}"
        return TypeError(f"{name}() received an invalid combination of arguments - got {got}{tail}")
    listed = "".join(f" * {s}\n" for s in sigs)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got_args(args, kwargs)}), "
                     f"but expected one of:\n{listed}")
