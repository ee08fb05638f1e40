"""`help(obj)` and `dir(obj)` for user code, with gradrepl's own short documentation.

The documentation is data: docs.json, keyed by name ("torch.ones", "Tensor.backward",
"torch.nn.functional.relu"), each entry a signature and one line, as PyTorch's
docstrings start (recorded from PyTorch 2.13 by scripts/record_docs.py; a new op adds
an entry there or by hand). help() prints through the session's output, so it counts
against the output budget like print(); it never shows a host object or a `_` name.
"""
import textwrap
from pathlib import Path

from gradrepl.lang.classes import method
from gradrepl.lang.facade import module
from gradrepl.lang.policy import METHODS
from gradrepl.lang.runtime import builtin_function_or_method, function

_TABLE = []


def table() -> dict:
    """name -> {"signature": ..., "summary": ...} (read once)."""
    if not _TABLE:
        import json
        path = Path(__file__).with_name("docs.json")
        try:
            _TABLE.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            _TABLE.append({})
    return _TABLE[0]


def _public(names):
    return sorted(n for n in names if isinstance(n, str) and not n.startswith("_"))


def _width():
    import shutil
    return max(40, min(shutil.get_terminal_size((80, 24)).columns, 100))


class Docs:
    """help and dir for one session (they look names up in its modules and namespace)."""

    def __init__(self, session):
        self.session = session
        self._names = None

    # what an object is called in the documentation ---------------------------------------
    def _facade_names(self):
        if self._names is None:
            names = {}
            queue = [(m.name, m) for m in self.session.modules.values()]
            while queue:
                prefix, mod = queue.pop(0)
                names.setdefault(id(mod), prefix)
                for key, value in mod.entries.items():
                    if key.startswith("_"):
                        continue
                    if type(value) is module:
                        queue.append((f"{prefix}.{key}", value))
                    else:
                        names.setdefault(id(value), f"{prefix}.{key}")
            self._names = names
        return self._names

    def name_of(self, obj):
        """The documentation key of obj ("torch.ones", "Tensor.sum", "Tensor"), or None."""
        api = self.session.api
        if api.is_tensor(obj):
            return "Tensor"
        if obj is self.session.tensor_type:
            return "torch.Tensor"
        if type(obj) is builtin_function_or_method:
            return obj.label
        if isinstance(obj, method) and api.is_tensor(obj.obj):   # x.backward read without a call
            return f"Tensor.{(obj.name or getattr(obj.fn, '__name__', '')).rsplit('.', 1)[-1]}"
        names = self._facade_names()
        return names.get(id(obj)) or names.get(id(type(obj)))     # an nn.Linear: its class

    # help -----------------------------------------------------------------------------------
    def help(self, *args):
        if len(args) != 1:
            raise TypeError(f"help() takes exactly one argument ({len(args)} given); "
                            "type :help for gradrepl's commands")
        self.session.write(self.text(args[0]) + "\n")

    def text(self, obj) -> str:
        width = _width()
        wrap = textwrap.TextWrapper(width=width, initial_indent="    ", subsequent_indent="    ")
        if type(obj) is module:
            return self._module_text(obj, width)
        if type(obj) is function:
            params = getattr(obj.params, "names", ())
            return (f"Help on function {obj.name} (defined in this session):\n\n"
                    f"{obj.name}({', '.join(params)})")
        name = self.name_of(obj)
        entry = table().get(name) if name else None
        if entry is None and name and name.startswith("Tensor."):
            entry = table().get("torch." + name.split(".", 1)[1])
        if entry is None:
            label = name or self.session.access.short_label(obj)
            return (f"No gradrepl documentation for {label}: see PyTorch's or Python's documentation "
                    f"(dir(obj) lists what it offers)")
        head = f"Help on {name}:\n\n{entry['signature']}"
        body = wrap.fill(entry["summary"]) if entry["summary"] else ""
        if name in ("Tensor", "torch.Tensor"):
            tensor = self.session.api.TORCH["ones"](1)
            body += "\n\n" + textwrap.fill("Attributes and methods: " + ", ".join(
                _public(self.session.api.public_attrs(tensor))), width=width, initial_indent="    ",
                subsequent_indent="    ")
        return head + ("\n" + body if body else "")

    def _module_text(self, mod, width):
        functions = [k for k, v in mod.entries.items() if type(v) is not module and callable(v)]
        modules = [k for k, v in mod.entries.items() if type(v) is module]
        lines = [f"Help on module {mod.name} (what gradrepl offers of it):"]
        for title, names in (("modules", modules), ("functions", functions)):
            if names:
                lines.append("")
                lines.append(textwrap.fill(f"{title}: " + ", ".join(_public(names)), width=width,
                                           initial_indent="    ", subsequent_indent="    "))
        lines.append("")
        lines.append(f"    help({mod.name}.NAME) shows one of them.")
        return "\n".join(lines)

    # dir -------------------------------------------------------------------------------------
    def dir(self, *args):
        if len(args) > 1:
            raise TypeError(f"dir expected at most 1 argument, got {len(args)}")
        if not args:
            return _public(self.session.namespace)
        obj = args[0]
        if type(obj) is module:
            return _public(k for k, v in obj.entries.items()
                           if type(v) not in self.session.access.unavailable)
        readable = self.session.api.public_attrs(obj)
        if readable is not None:
            return _public(readable)
        methods = METHODS.get(type(obj))
        if methods is not None:
            return _public(methods)
        return self._readable(obj)

    def _readable(self, obj):
        """A learner's object or a library one (nn.Linear): the names `.name` may read, as
        the attribute rule itself decides."""
        state = getattr(obj, "__dict__", None) or {}
        candidates = set(state)
        for registry in ("_parameters", "_modules", "_buffers"):     # an nn.Module's own
            if isinstance(state.get(registry), dict):
                candidates.update(state[registry])
        for klass in type(obj).__mro__[:-1]:
            candidates.update(vars(klass))
        found = []
        for name in _public(candidates):
            try:
                self.session.access.get(obj, name)
            except Exception:  # noqa: BLE001 - not readable: not listed
                continue
            found.append(name)
        return found


def doc_builtins(session) -> dict:
    """The `help` and `dir` builtins of a session."""
    docs = Docs(session)
    return {"help": builtin_function_or_method(docs.help, "help"),
            "dir": builtin_function_or_method(docs.dir, "dir")}
