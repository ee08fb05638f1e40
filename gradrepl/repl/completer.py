"""Tab completion that never evaluates anything.

Names come from the session's namespace and the pre-imported shorthand; attributes
from the allow-lists the interpreter itself obeys (torch facades, the engine's
`public_attrs`, the Python value methods of gradrepl.lang.policy); keyword arguments
from signatures of gradrepl's own functions (never calling them). Chains such as
`x.grad.` or `y.grad_fn.` are resolved by type, without reading the attribute, so
completion can never trigger a warning or a hook.
"""
import inspect
import keyword
import re

from prompt_toolkit.completion import Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from gradrepl.repl.multiline import is_meta

_DOTTED = re.compile(r"([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\.\s*(\w*)$")
_WORD = re.compile(r"[A-Za-z_]\w*$")
_CALLEE = re.compile(r"([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*$")
# what an attribute of a tensor is, so that `x.grad.` completes without reading x.grad
_TENSOR_VALUED = frozenset(("grad", "data", "T", "mT"))
_KEYWORDS = sorted(set(keyword.kwlist) - {"async", "await", "global"})
_AFTER_CALL = re.compile(r"[)\]]\s*\.\s*(\w*)$")
# calls whose result is not a tensor (everything else in torch.* and Tensor.* returns one);
# the engine's op table adds its own (api.NOT_TENSOR_RESULTS: equal, allclose, ...)
_NOT_TENSOR = frozenset("""
item tolist size dim ndimension numel nelement element_size is_floating_point is_contiguous
register_hook backward numpy retain_grad requires_grad_ is_tensor manual_seed
seed initial_seed set_rng_state no_grad enable_grad set_grad_enabled inference_mode
is_grad_enabled set_printoptions broadcast_shapes Generator Size
""".split())


class _Typed:
    """Stands for an attribute's value when only its type is known."""

    __slots__ = ("kind",)

    def __init__(self, kind):
        self.kind = kind


class Names:
    """What completion may look at; the REPL supplies it (tests pass their own)."""

    def __init__(self, namespace=None, fallback=None, api=None, meta_commands=(), lesson_names=(),
                 help_topics=()):
        self.namespace = namespace if namespace is not None else {}
        self.fallback = fallback if fallback is not None else {}
        self.api = api
        self.meta_commands = meta_commands
        self.lesson_names = lesson_names
        self.help_topics = help_topics


class ReplCompleter(Completer):
    def __init__(self, names):
        """`names` is a Names or a callable returning one (the session can change)."""
        self._names = names
        self._paths = PathCompleter(expanduser=True)

    def names(self):
        return self._names() if callable(self._names) else self._names

    def get_completions(self, document, complete_event):
        names = self.names()
        if is_meta(document.text):
            yield from self._meta(document, names, complete_event)
        else:
            yield from python_completions(document.text_before_cursor, names)

    # meta commands -----------------------------------------------------------------------
    def _meta(self, document, names, complete_event):
        before = document.text_before_cursor.lstrip()
        if "\n" in before:
            return
        command, space, argument = before.partition(" ")
        if not space:
            for name in _call(names.meta_commands):
                if name.startswith(command):
                    yield Completion(name, -len(command), display_meta="command")
            return
        argument = argument.lstrip()
        if command in (":load", ":save"):
            sub = Document(argument, len(argument))
            yield from self._paths.get_completions(sub, complete_event)
            return
        if command in (":graph", ":explain", ":gradcheck", ":jacobian"):
            word = argument.rsplit(" ", 1)[-1]
            choices = [n for n, v in names.namespace.items()
                       if isinstance(n, str) and names.api is not None and names.api.is_tensor(v)]
        else:
            word = argument
            choices = {":lesson": names.lesson_names, ":help": names.help_topics,
                       ":tutor": ("on", "off"), ":lang": ("en", "zh")}.get(command, ())
            choices = _call(choices)
        for choice in sorted(choices):
            if choice.startswith(word):
                yield Completion(choice, -len(word))


def _call(value):
    return value() if callable(value) else value


# Python ---------------------------------------------------------------------------------

def python_completions(text, names):
    """Completions for Python source ending at the cursor."""
    line = text.rsplit("\n", 1)[-1]
    if _in_string_or_comment(line):
        return
    m = _DOTTED.search(text)
    after_call = _AFTER_CALL.search(text) if not m else None
    if m or after_call:
        if m:
            base, prefix = resolve(m.group(1), names), m.group(2)
        else:
            base, prefix = call_result(text[:after_call.start() + 1], names), after_call.group(1)
        if base is None:
            return
        for attr in attributes(base, names.api):
            if attr.startswith(prefix):
                yield Completion(attr, -len(prefix))
        return
    m = _WORD.search(text)
    prefix = m.group(0) if m else ""
    if m and m.start() > 0 and text[m.start() - 1].isdigit():
        return                                         # 1e5, 0x1f: numbers, not names
    for arg in keyword_arguments(text[:len(text) - len(prefix)], names):
        if arg.startswith(prefix):
            yield Completion(arg + "=", -len(prefix), display=arg + "=", display_meta="argument")
    if not prefix:
        return
    seen = set()
    for pool, meta in ((names.namespace, "variable"), (names.fallback, None)):
        for name in sorted(k for k in pool if isinstance(k, str)):
            if name.startswith(prefix) and not _private(name) and name not in seen:
                seen.add(name)
                yield Completion(name, -len(prefix), display_meta=meta or _label(pool[name]))
    for word in _KEYWORDS:
        if word.startswith(prefix) and word not in seen:
            yield Completion(word, -len(prefix), display_meta="keyword")


def _private(name):
    return name.startswith("_") and name != "_"


def _label(value):
    return "function" if callable(value) else ""


def _in_string_or_comment(line):
    quote = None
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif line.startswith(quote, i):
                i += len(quote) - 1
                quote = None
        elif c == "#":
            return True
        elif c in "'\"":
            quote = c * 3 if line.startswith(c * 3, i) else c
            i += len(quote) - 1
        i += 1
    return quote is not None


def resolve(dotted, names):
    """The value (or _Typed) a dotted name stands for, looked up without evaluating; else None."""
    parts = [p.strip() for p in dotted.split(".")]
    if any(_private(p) for p in parts):
        return None
    first = parts[0]
    value = names.namespace.get(first, names.fallback.get(first))
    for attr in parts[1:]:
        if value is None:
            return None
        value = _attribute(value, attr, names.api)
    return value


def call_result(text, names):
    """What `text` (ending in a call's `)` or a subscript's `]`) gives, when known to be a tensor."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        c = text[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            depth -= 1
            if depth == 0:
                m = _CALLEE.search(text[:i]) if c in "([" else None
                if m is None:
                    return None
                dotted = m.group(1)
                target = resolve(dotted, names)
                if c == "[":                   # x[0], x.grad[:, 1]: indexing a tensor
                    is_tensor = isinstance(target, _Typed) and target.kind == "tensor" or \
                        names.api is not None and names.api.is_tensor(target)
                    return _Typed("tensor") if is_tensor else None
                name = dotted.rsplit(".", 1)[-1].strip()
                if name in _NOT_TENSOR or name in getattr(names.api, "NOT_TENSOR_RESULTS", ()) or target is None:
                    return None
                if isinstance(target, _Typed):
                    is_method = isinstance(target.kind, tuple)
                    return _Typed("tensor") if is_method else None
                in_torch = any(target is v for v in _torch_entries(names))
                return _Typed("tensor") if in_torch and callable(target) else None
    return None


def _torch_entries(names):
    """Every value in the torch facade and its submodules (torch.nn.functional, ...)."""
    found = []
    stack = [names.namespace.get("torch", names.fallback.get("torch"))]
    while stack:
        entries = getattr(stack.pop(), "entries", None)
        if isinstance(entries, dict):
            found.extend(entries.values())
            stack.extend(v for v in entries.values() if type(v).__name__ == "module")
    return found


def _attribute(value, attr, api):
    if isinstance(value, _Typed):
        if value.kind == "tensor":
            return _tensor_attribute(attr)
        return None
    entries = getattr(value, "entries", None) if type(value).__name__ == "module" else None
    if isinstance(entries, dict):
        return entries.get(attr)
    if api is not None and api.is_tensor(value):
        return _tensor_attribute(attr)
    return None


def _tensor_attribute(attr):
    if attr in _TENSOR_VALUED:
        return _Typed("tensor")
    kind = {"grad_fn": "node", "shape": "size", "dtype": "dtype"}.get(attr)
    return _Typed(kind) if kind else _Typed(("method", attr))


def attributes(value, api):
    """Attribute names user code may read on `value`, sorted."""
    from gradrepl.lang.policy import METHODS

    if isinstance(value, _Typed):
        kinds = {"tensor": "TENSOR_ATTRS", "node": "NODE_ATTRS", "size": "SIZE_ATTRS",
                 "dtype": "DTYPE_ATTRS"}
        table = getattr(api, kinds.get(value.kind, ""), None) if isinstance(value.kind, str) else None
        return sorted(table or ())
    if type(value).__name__ == "module" and isinstance(getattr(value, "entries", None), dict):
        hidden = tuple(t for t in (getattr(api, "Unavailable", None),) if t is not None)
        return sorted(k for k, v in value.entries.items()
                      if not _private(k) and not isinstance(v, hidden)
                      and type(v).__name__ != "Later")
    if type(value).__name__ == "autograd_function":
        return sorted({"apply", *value.methods})
    if api is not None:
        readable = api.public_attrs(value)
        if readable is not None:
            return sorted(readable)
    names = _instance_attributes(value)
    if names is not None:
        return sorted(names)
    return sorted(METHODS.get(type(value), ()))


def _instance_attributes(value):
    """A model, optimizer, loader or learner's instance: the host part's public names, the
    registered parameters/buffers/submodules, instance and class attributes (read from
    dictionaries only: completion calls nothing)."""
    from gradrepl.lang.classes import PUBLIC, USER, host_public

    cls = type(value)
    if getattr(cls, PUBLIC, None) is None and not getattr(cls, USER, False):
        return None
    names = set(host_public(cls))
    own = getattr(value, "__dict__", None) or {}
    names.update(k for k in own if isinstance(k, str))
    for registry in ("_parameters", "_buffers", "_modules"):
        names.update(k for k in own.get(registry, ()) if isinstance(k, str))
    for klass in cls.__mro__:
        if USER in klass.__dict__:
            names.update(k for k in klass.__dict__ if isinstance(k, str))
    return {n for n in names if not n.startswith("_")}


def keyword_arguments(text, names):
    """Parameter names of the innermost call the cursor is in, e.g. `x.backward(` -> retain_graph."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        c = text[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                if c != "(":
                    return []
                return _parameters(_callee(text[:i], names), names)
            depth -= 1
    return []


def _callee(text, names):
    """The function called by the `(` that ends `text`: `torch.sum`, `x.backward`, `x.sum().backward`."""
    m = _CALLEE.search(text)
    if m is None:
        return None
    before = text[:m.start()].rstrip()
    if before.endswith(".") and before[:-1].rstrip().endswith((")", "]")):
        base = call_result(before[:-1].rstrip(), names)
        parts = [p.strip() for p in m.group(1).split(".")]
        for attr in parts:
            if base is None or _private(attr):
                return None
            base = _attribute(base, attr, names.api)
        return base
    return resolve(m.group(1), names)


def _parameters(target, names):
    if target is None:
        return []
    if isinstance(target, _Typed):
        kind = target.kind
        if not (isinstance(kind, tuple) and kind[0] == "method"):
            return []
        target = _tensor_method(kind[1], names.api)
    params = getattr(target, "params", None)
    if params is not None and hasattr(params, "names"):       # a learner's def
        return [n for n in (*params.names, *params.kwonly) if not _private(n)]
    fn = getattr(target, "fn", target)                         # builtin wrappers
    if not callable(fn):
        return []
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    kinds = {p.kind for p in signature.parameters.values()}
    if inspect.Parameter.VAR_KEYWORD in kinds:
        # torch.sum(input, *args, **kwargs) forwards to the tensor method: use its parameters
        method = _tensor_method(getattr(fn, "__name__", ""), names.api)
        if method is not None:
            return ["input", *_named_parameters(inspect.signature(method))]
    return _named_parameters(signature)


def _named_parameters(signature):
    return [p.name for p in signature.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            and p.name != "self" and not _private(p.name)]


def _tensor_method(name, api):
    if api is None or name not in getattr(api, "TENSOR_ATTRS", ()):
        return None
    tensor_class = getattr(api, "Tensor", None)
    member = inspect.getattr_static(tensor_class, name, None) if tensor_class else None
    return member if inspect.isfunction(member) else None
