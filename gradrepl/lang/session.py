"""Session and run_source: the one way to run learner code (see gradrepl.lang)."""
import ast
import faulthandler
import os
import _signal as signal   # `signal` without its enums (start-up); see worker/front.py
import sys

from gradrepl import limits as limits_module
from gradrepl.engine import metadevice, signatures
from gradrepl.engine.devices import ACTIVE, META
from gradrepl.errors import BudgetExceeded, Interrupted, Record
from gradrepl.lang.builtins import make_builtins
from gradrepl.lang.carets import carets, find_statement
from gradrepl.lang.compiler import LOC, CompileError, Compiler
from gradrepl.lang.docs import doc_builtins
from gradrepl.lang.errors import ExitRequested, NotSupported, UserError, escape_control, hint_for, \
    without_internals
from gradrepl.lang.facade import Access, host_class_standins, math_facade, numpy_facade, random_facade, \
    torch_facade, type_label
from gradrepl.lang.policy import BARE_TORCH, BUILTIN_NAMES, TRUSTED_BUILTIN_NAMES
from gradrepl.lang.runtime import REFUSALS, TEXT_SIZES, Budget, check_text, function, \
    safe_repr, time_exceeded
from gradrepl.limits import Limits
from gradrepl.messages import msg
from gradrepl.worker import monitor

_RECURSION_FLOOR = 1_500
_DEVNULL = []


def _devnull():
    """faulthandler's dump goes nowhere: the learner never sees a host traceback."""
    if not _DEVNULL:
        _DEVNULL.append(open(os.devnull, "w"))  # noqa: SIM115 - kept open for the process
    return _DEVNULL[0]
_DEPTH_CEILING = 1_000
_MESSAGE_SHOWN = 10_000        # characters of an error message shown


class StatementResult(Record):
    """One top-level statement: where it is, what it bound, how it ended.
    changed_in_place: names whose value the statement may have changed in place."""

    FIELDS = ("line", "end_line", "source", "assigned", "error", "grads_changed",
              "changed_in_place")

    def __init__(self, line: int, end_line: int, source: str, assigned: tuple = (),
                 error: UserError | None = None, grads_changed: tuple = (),
                 changed_in_place: tuple = ()):
        self.line = line
        self.end_line = end_line
        self.source = source
        self.assigned = assigned
        self.error = error
        self.grads_changed = grads_changed
        self.changed_in_place = changed_in_place


class Ran(Record):
    """A top-level statement that ran without error, for :save and export: its exact source and,
    for an expression statement that echoed its value, how ('print': str(value) is what was
    shown, as for tensors and numbers; 'repr': a string, shown quoted)."""

    FIELDS = ("source", "echo")

    def __init__(self, source: str, echo: str | None = None):
        self.source = source
        self.echo = echo


class RunResult(Record):
    FIELDS = ("ok", "errors", "statements", "interrupted", "exit_requested", "syntax_error")

    def __init__(self, ok: bool = True, errors: list | None = None, statements: list | None = None,
                 interrupted: bool = False, exit_requested: bool = False,
                 syntax_error: bool = False):
        self.ok = ok
        self.errors = [] if errors is None else errors
        self.statements = [] if statements is None else statements
        self.interrupted = interrupted
        self.exit_requested = exit_requested
        self.syntax_error = syntax_error


class _Context:
    """What compiled closures of one session share."""

    def __init__(self, session):
        self.namespace = session.namespace
        self.fallback = session.fallback
        self.budget = session.budget
        self.access = session.access
        self.api = session.api
        self.modules = session.modules
        self.handling = []

    @staticmethod
    def call(fn, args, kwargs):
        if type(fn) is function:
            return fn.invoke(args, kwargs)
        try:
            if (META or kwargs or ACTIVE[0] is not None) and metadevice.needs(fn, args, kwargs):
                return metadevice.run(fn, args, kwargs)
            return fn(*args, **kwargs)
        except (TypeError, ValueError, AttributeError, RuntimeError, IndexError) as e:
            if not callable(fn):    # x.shape(0): Python's message with the type's own name
                from gradrepl.engine import api
                raise TypeError(f"'{type_label(fn, api)}' object is not callable") from None
            # arguments of types PyTorch's parser refuses: its message, whatever ours said
            wrong = signatures.mismatch(fn, args, kwargs, e)
            if wrong is None:
                raise
            raise wrong from None

    def autograd_function_base(self):
        return self.api.TORCH["autograd"]["Function"]


class Session:
    """A learner's session: namespace, limits, output, history of what succeeded.

    write(text)       prints program output (default: sys.stdout)
    display(value)    shows a top-level expression's value (default: write(repr(value)))
    report(error)     called at once for each UserError (default: nothing; errors are
                      also returned in RunResult)
    warn(category, message)  engine warnings (PyTorch's UserWarning etc.; default: ignored)
    after_statement(result)  called after each top-level statement (REPL annotations)
    hard_stop         when True (script mode), a statement stuck inside one host C call
                      well past its time limit ends the process with status 1: nothing
                      can stop such a call from Python
    track_grads       fill StatementResult.grads_changed (costs a snapshot per statement)
    """

    def __init__(self, *, limits: Limits | None = None, write=None):
        from gradrepl.engine import api
        self.api = api
        self.limits = limits if limits is not None else Limits()
        self.write_out = write if write is not None else _stdout_write
        self.display = None
        self.report = None
        self.warn = None
        self.where = None       # (filename, line, source) of the running top-level statement
        self.after_statement = None
        self.hard_stop = False
        self.track_grads = False
        self.succeeded: list[str] = []
        self.transcript: list[Ran] = []
        self.budget = Budget()
        self.access = Access(api)
        self.namespace: dict = {}
        self.fallback: dict = {}
        self.modules = {"torch": torch_facade(api), "math": math_facade(),
                        "random": random_facade(self.budget), "numpy": numpy_facade(api)}
        self.tensor_type = api.TORCH.get("Tensor")
        tensor_class = getattr(api, "Tensor", None)
        if tensor_class is not None:
            # a tensor inside a list prints its (summarised) values: about 8 characters each
            TEXT_SIZES[tensor_class] = lambda t: 8 * min(t.numel(), 1000) + 20
        self._populate()
        self._ctx = _Context(self)
        self._compiler = Compiler(self._ctx)
        if hasattr(api, "set_warning_sink"):
            api.set_warning_sink(self._on_warning)

    def _populate(self):
        self.namespace.clear()
        self.namespace["torch"] = self.modules["torch"]
        self.namespace["math"] = self.modules["math"]
        self.fallback.clear()
        torch = self.modules["torch"]
        for name in (*BARE_TORCH, *getattr(self.api, "BARE_OPS", ())):
            value = torch.entries.get(name)
            if value is not None and callable(value) and name not in BUILTIN_NAMES:
                self.fallback[name] = value
        builtins, self.pytypes = make_builtins(
            budget=self.budget, write=self.write, api=self.api, tensor_type=self.tensor_type,
            trusted=True, access=self.access)
        self.fallback.update(builtins)
        self.pytypes.update(host_class_standins(self.modules["torch"]))
        self.fallback.update(doc_builtins(self))
        self._exits = {name: self.fallback.pop(name) for name in TRUSTED_BUILTIN_NAMES}

    def reset(self):
        """Forget every variable (the namespace dict keeps its identity)."""
        self._populate()
        self.succeeded.clear()
        printoptions = self.api.TORCH.get("set_printoptions")
        if callable(printoptions):          # process-wide: back to PyTorch's defaults too
            printoptions(profile="default")
        default_device = self.api.TORCH.get("set_default_device")
        if callable(default_device):
            default_device(None)
        if monitor.ACTIVE is not None:
            monitor.ACTIVE.reset(self)
        self.transcript.clear()

    def write(self, text: str):
        self._count(len(text))
        escaped = escape_control(text)
        if len(escaped) != len(text):   # an escaped control character prints as 4 characters
            self._count(len(escaped) - len(text))
        self.write_out(escaped)

    def _count(self, n):
        b = self.budget
        b.output += n
        if b.output > b.max_output:
            raise BudgetExceeded(
                "output", f"output limit exceeded: more than {b.max_output} characters printed "
                f"by one statement (raise it with --max-output)", "--max-output")

    def _on_warning(self, category, message):
        if self.warn is not None:
            self.warn(category, message)



def _stdout_write(text):
    sys.stdout.write(text)


# --- parsing ------------------------------------------------------------------------------

def _ast_depth(node, limit):
    """Depth of the tree, stopping early once it passes limit."""
    stack = [(node, 1)]
    deepest = 0
    while stack:
        n, d = stack.pop()
        if d > deepest:
            deepest = d
            if deepest > limit:
                return deepest
        stack.extend((c, d + 1) for c in ast.iter_child_nodes(n))
    return deepest


class _Validator(ast.NodeVisitor):
    """Errors CPython's compiler (not its parser) reports: nothing runs when one is found."""

    def __init__(self):
        self.loops = 0
        self.functions = 0

    def visit_FunctionDef(self, node):
        args = node.args
        names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
        names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        seen = set()
        for n in names:
            if n in seen:
                raise SyntaxError(f"duplicate argument '{n}' in function definition",
                                  ("", node.lineno, node.col_offset + 1, None))
            seen.add(n)
        saved = self.loops
        self.loops = 0
        self.functions += 1
        self.generic_visit(node)
        self.functions -= 1
        self.loops = saved

    visit_Lambda = visit_FunctionDef
    visit_AsyncFunctionDef = visit_FunctionDef

    def _loop(self, node):
        for child in (node.target if hasattr(node, "target") else None, node.iter
                      if hasattr(node, "iter") else None, getattr(node, "test", None)):
            if child is not None:
                self.visit(child)
        self.loops += 1
        for s in node.body:
            self.visit(s)
        self.loops -= 1
        for s in node.orelse:
            self.visit(s)

    visit_For = visit_While = visit_AsyncFor = _loop

    def _jump(self, node):
        if not self.loops:
            word = "break" if isinstance(node, ast.Break) else "continue"
            raise SyntaxError(f"'{word}' outside loop", ("", node.lineno, node.col_offset + 1, None))

    visit_Break = visit_Continue = _jump

    def visit_Return(self, node):
        if not self.functions:
            raise SyntaxError("'return' outside function",
                              ("", node.lineno, node.col_offset + 1, None))
        self.generic_visit(node)


def _parse(text, filename, limits):
    """ast.Module, or a UserError of kind 'syntax' (nothing runs)."""
    def syntax_error(message, line=None, col=None, name="SyntaxError"):
        lines = text.splitlines()
        source = lines[line - 1] if line and 0 < line <= len(lines) else None
        return UserError(name, message, filename, line, col, source, kind="syntax")

    if len(text) > limits.max_source * 10:
        return syntax_error(f"source too large: {len(text)} characters, over the limit of "
                            f"{limits.max_source * 10} for a file (raise --max-source)")
    try:
        tree = ast.parse(text, filename)
    except SyntaxError as e:
        col = (e.offset - 1) if e.offset else None
        return syntax_error(e.msg, e.lineno, col, type(e).__name__)   # IndentationError, TabError
    except (RecursionError, MemoryError):
        return syntax_error("input too deeply nested or too large to parse")
    except ValueError as e:   # e.g. source code string cannot contain null bytes
        return syntax_error(str(e))
    try:
        _Validator().visit(tree)
    except SyntaxError as e:
        return syntax_error(e.msg, e.lineno, (e.offset - 1) if e.offset else None)
    except RecursionError:
        return syntax_error("input too deeply nested")
    return tree


def _segment(lines, node):
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return "\n".join(lines[first - 1:node.end_lineno]), first


def _exact_segment(lines, node):
    """The statement's own text (decorators included), not its neighbours on a `;` line.
    Columns in the ast are UTF-8 byte offsets."""
    decorators = getattr(node, "decorator_list", [])
    first, col = node.lineno, node.col_offset
    if decorators:
        first, col = decorators[0].lineno, 0
    last, end = node.end_lineno, node.end_col_offset
    if not (0 < first <= last <= len(lines)):
        return "\n".join(lines[first - 1:last])
    if first == last:
        return lines[first - 1].encode()[col:end].decode(errors="replace")
    head = lines[first - 1].encode()[col:].decode(errors="replace")
    tail = lines[last - 1].encode()[:end].decode(errors="replace")
    return "\n".join([head, *lines[first:last - 1], tail])


def imports_torch(tree) -> bool:
    """Does the program import torch anywhere (then it is a PyTorch script: no bare names)?"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(a.name == "torch" or a.name.startswith("torch.") for a in node.names):
                return True
        elif isinstance(node, ast.ImportFrom):
            if node.module and (node.module == "torch" or node.module.startswith("torch.")):
                return True
    return False


def _assigned_names(node):
    """Top-level names a statement binds, in order (for the REPL's annotations)."""
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return (node.name,)
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return tuple((a.asname or a.name).split(".")[0] for a in node.names)
    targets, bodies = [], []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, ast.For):
        targets, bodies = [node.target], [*node.body, *node.orelse]
    elif isinstance(node, ast.With):
        targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
        bodies = node.body
    elif isinstance(node, (ast.If, ast.While, ast.Try)):
        bodies = [*node.body, *node.orelse, *getattr(node, "finalbody", []),
                  *[s for h in getattr(node, "handlers", []) for s in h.body]]
    names = [n.id for t in targets for n in ast.walk(t)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    for sub in bodies:
        names.extend(_assigned_names(sub))
    return tuple(dict.fromkeys(names))


def _changed_in_place(node):
    """Names a statement changes without rebinding them: `y[0, 0] = 5`, `y.data = ...`,
    `c = y.detach_()`, `torch.nn.init.zeros_(w)` (for the REPL's tutor lines). Bodies of
    functions defined here do not run here, so they do not count."""
    names = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Store):
            base = n.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                names.append(base.id)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr.endswith("_") and not n.func.attr.startswith("_"):
            root, through = n.func.value, []
            while isinstance(root, ast.Attribute):
                through.append(root.attr)
                root = root.value
            if not isinstance(root, ast.Name) or "grad" in through:
                pass                                             # x.grad.zero_(): the .grad table
            elif root.id not in ("torch", "nn", "init", "math"):
                names.append(root.id)                            # y.detach_(), y.data.fill_(1)
            elif n.args and isinstance(n.args[0], ast.Name):     # torch.nn.init.zeros_(w)
                names.append(n.args[0].id)
        stack.extend(reversed(list(ast.iter_child_nodes(n))))
    return tuple(dict.fromkeys(names))


# --- running ----------------------------------------------------------------------------

class _Watchdog:
    """A wall-clock backstop: at the deadline, make the next step check the clock; a little
    later, stop the statement even inside a long Python-level host call.  Work inside one C
    call cannot be stopped from Python (and holds the GIL): with hard_stop, faulthandler's
    own C thread ends the process with status 1 if the statement is still running
    STUCK_GRACE seconds after that."""

    STUCK_GRACE = 2.0
    ALARM_GRACE = 0.5

    def __init__(self, budget, limit, hard_stop=False):
        self.budget = budget
        self.limit = limit
        self.fired = False
        self.active = False
        self.enabled = limit is not None and hasattr(signal, "setitimer") and _main_thread()
        self.hard_stop = hard_stop and limit is not None
        self.previous = None

    def __enter__(self):
        if self.enabled:
            self.previous = signal.signal(signal.SIGALRM, self._on_alarm)
            self.active = True
            signal.setitimer(signal.ITIMER_REAL, self.limit)
        if self.hard_stop:
            faulthandler.dump_traceback_later(self.limit * 2 + self.STUCK_GRACE, exit=True,
                                              file=_devnull())
        return self

    def _on_alarm(self, signum, frame):
        if not self.active:
            return
        if not self.fired:
            self.fired = True
            self.budget.countdown = 0
            signal.setitimer(signal.ITIMER_REAL, max(self.ALARM_GRACE, self.limit / 2))
            return
        raise time_exceeded(self.limit)

    def __exit__(self, *exc):
        self.active = False
        if self.hard_stop:
            faulthandler.cancel_dump_traceback_later()
        if self.enabled:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


def _main_thread():
    import threading    # only with a time limit: `run FILE` and the prompt start without it
    return threading.current_thread() is threading.main_thread()


def _apply_limits(limits):
    target = limits_module.LIMITS
    for name in Limits.FIELDS:
        setattr(target, name, getattr(limits, name))
    # Python frames per interpreted call level, and no deeper: C-level recursion (repr or ==
    # of nested lists) is bounded by the same limit and must not overflow the C stack.
    wanted = _RECURSION_FLOOR + 12 * min(limits.max_depth, _DEPTH_CEILING)
    if sys.getrecursionlimit() < wanted:
        sys.setrecursionlimit(wanted)
    if monitor.ACTIVE is not None:
        monitor.ACTIVE.apply_limits(limits)


def _grad_snapshot(session):
    api = session.api
    snap = {}
    for name, value in list(session.namespace.items()):
        if isinstance(name, str) and api.is_tensor(value):
            g = api.peek_grad(value)   # not value.grad: that warns for non-leaves
            snap[name] = (id(g), g.tolist() if g is not None and g.numel() <= 10_000 else None)
    return snap


def _error_from(exc, filename, lines, node, kind="error", tree=None):
    exc = without_internals(exc)
    loc = getattr(exc, "__dict__", {}).get(LOC)
    line, col = loc if loc else (node.lineno, node.col_offset)
    source = lines[line - 1] if 0 < line <= len(lines) else None
    if isinstance(exc, BudgetExceeded):
        type_name, message, kind = "BudgetExceeded", exc.message, "budget"
    elif isinstance(exc, (KeyboardInterrupt, Interrupted)):
        type_name, message, kind = "KeyboardInterrupt", "interrupted by Ctrl-C", "interrupt"
    elif isinstance(exc, MemoryError):     # NumPy's own subclass has an internal name
        type_name, kind = "MemoryError", "budget"
        message = ("out of memory: the statement needed more memory than gradrepl's worker may "
                   "use (the tensor-memory limit is --max-memory)")
    else:
        type_name = NotSupported.type_name if isinstance(exc, NotSupported) else type(exc).__name__
        if type(exc).__module__.startswith("numpy."):       # NumPy's own errors go by their full name
            type_name = f"{type(exc).__module__}.{type(exc).__qualname__}"
        try:
            check_text(exc)
            message = str(exc)
        except BudgetExceeded:
            message = "(the message is too long to show)"
        except Exception:   # noqa: BLE001 - a huge int, deep nesting: Python prints the same
            message = "<exception str() failed>"
        if len(message) > _MESSAGE_SHOWN:
            message = message[:_MESSAGE_SHOWN] + "... (the message is too long to show in full)"
        if isinstance(exc, RecursionError):
            type_name, kind = "BudgetExceeded", "budget"
            message = ("nesting too deep: calls or nested data went past Python's recursion "
                       "limit (--max-depth)")
    hint = exc.__dict__.get("gradrepl_hint") if hasattr(exc, "__dict__") else None
    hint = hint or hint_for(type_name, message, source)
    marks = None
    if kind == "error" and source is not None:
        try:
            stmt = find_statement(node, line, col) or (find_statement(tree, line, col) if tree else None)
            marks = carets(stmt, type_name, message, source)
        except Exception:  # noqa: BLE001 - carets are a nicety; the error itself must get out
            marks = None
    return UserError(type_name, message, filename, line, col, source, hint, kind, node.lineno, marks)


def _bare_name(exc):
    message = str(exc)
    return message[len("name '"):-len("' is not defined")] if message.startswith("name '") else None


def run_source(text: str, session: Session, *, filename: str = "<stdin>", trusted: bool = False,
               keep_going: bool = False, echo: str = "toplevel", bare_names: bool | None = None
               ) -> RunResult:
    """Parse `text` whole, then run its top-level statements in order (see gradrepl.lang).
    bare_names: whether gradrepl's shorthand (`exp`, `tensor`) exists; default: at the prompt
    (trusted) and in code that never imports torch."""
    result = RunResult()
    try:
        _run(text, session, filename, trusted, keep_going, echo, result, bare_names)
    except (KeyboardInterrupt, Interrupted):    # Ctrl-C between statements (parsing, bookkeeping)
        session.budget.active = False
        result.ok = False
        result.interrupted = True
        error = UserError("KeyboardInterrupt", "interrupted by Ctrl-C", filename, kind="interrupt")
        result.errors.append(error)
        if session.report is not None:
            session.report(error)
    return result


def _run(text, session, filename, trusted, keep_going, echo, result, bare_names):
    limits = session.limits
    _apply_limits(limits)
    if hasattr(session.api, "set_warning_sink"):
        # the engine's sink is process-wide: the session that runs code owns it meanwhile
        session.api.set_warning_sink(session._on_warning)
    tree = _parse(text, filename, limits)

    def fail(error):
        result.ok = False
        result.errors.append(error)
        if session.report is not None:
            session.report(error)

    if isinstance(tree, UserError):
        result.syntax_error = True
        fail(tree)
        return
    lines = text.splitlines()
    if trusted:
        session.fallback.update(session._exits)
    else:
        for name in TRUSTED_BUILTIN_NAMES:
            session.fallback.pop(name, None)
    # DECISIONS (bare names): a file or pipe that imports torch is a PyTorch script, where a
    # bare `exp` is a NameError as in Python; the prompt and expression files keep the shorthand.
    hidden = {}
    if bare_names is None:
        bare_names = trusted or not imports_torch(tree)
    if not bare_names:
        torch = session.modules["torch"].entries
        hidden = {name: session.fallback.pop(name)
                  for name in (*BARE_TORCH, *getattr(session.api, "BARE_OPS", ()))
                  if name in session.fallback and session.fallback[name] is torch.get(name)}
    try:
        _run_statements(tree, lines, session, filename, trusted, keep_going, echo, result, fail,
                        set(hidden))
    finally:
        session.fallback.update(hidden)


def _run_statements(tree, lines, session, filename, trusted, keep_going, echo, result, fail, hidden):
    limits = session.limits
    compiled = []
    for node in tree.body:
        try:
            if _ast_depth(node, limits.max_ast_depth) > limits.max_ast_depth:
                raise CompileError(BudgetExceeded(
                    "ast-depth", f"statement too deeply nested: more than {limits.max_ast_depth} "
                    f"levels of syntax (raise it with --max-ast-depth)", "--max-ast-depth"), node)
            src, first = _segment(lines, node)
            if len(src) > limits.max_source:
                raise CompileError(BudgetExceeded(
                    "source", f"statement too long: {len(src)} characters of source, over the "
                    f"limit of {limits.max_source} (raise it with --max-source)",
                    "--max-source"), node)
            if isinstance(node, ast.Expr) and echo == "toplevel":
                code = ("expr", session._compiler.expression(node.value))
            else:
                code = ("stmt", session._compiler.statement(node))
        except CompileError as e:
            code = ("refused", e)
        except RecursionError:
            code = ("refused", CompileError(BudgetExceeded(
                "ast-depth", "statement too deeply nested to compile", "--max-ast-depth"), node))
        except Exception as exc:  # noqa: BLE001 - a gradrepl bug: reported, never a traceback
            code = ("internal", exc)
        compiled.append((node, code))

    display = session.display or (lambda value: session.write(safe_repr(value) + "\n"))
    channel = monitor.ACTIVE
    plan = channel.take_plan() if channel is not None else None
    replaying = None
    for index, (node, (kind, code)) in enumerate(compiled):
        if plan is not None and replaying is None and index < plan["start"]:
            # a new worker after a death (--keep-going): what succeeded runs again unseen
            replaying = _Quiet(session)
        if replaying is not None and index >= plan["start"]:
            replaying.restore()
            replaying = None
        if replaying is not None and index not in plan["replay"]:
            continue
        echoed = None
        src, first = _segment(lines, node)
        session.where = (filename, first, lines[first - 1] if 0 < first <= len(lines) else "")
        stmt = StatementResult(first, node.end_lineno, src, _assigned_names(node),
                               changed_in_place=_changed_in_place(node))
        before = _grad_snapshot(session) if session.track_grads else None
        session.budget.start()
        session._ctx.handling.clear()
        error = None
        refusals = REFUSALS[0]
        if channel is not None:
            channel.begin(index, filename, first, src, limits.time_limit)
        try:
            if kind == "refused":
                error = _error_from(code.exc, filename, lines, code.node)
            elif kind == "internal":
                error = UserError("InternalError", f"gradrepl could not compile this statement "
                                  f"({type(code).__name__}: {code}); please report it",
                                  filename, node.lineno, node.col_offset,
                                  lines[node.lineno - 1], kind="internal")
            else:
                with _Watchdog(session.budget, limits.time_limit, session.hard_stop):
                    if kind == "expr":
                        value = code(session.namespace)
                        if value is not None:
                            display(value)
                            echoed = "repr" if isinstance(value, (str, BaseException)) else "print"
                    else:
                        code(session.namespace)
        except ExitRequested:
            session.budget.active = False
            result.exit_requested = True
            result.statements.append(stmt)
            break
        except (KeyboardInterrupt, Interrupted) as exc:
            error = _error_from(exc, filename, lines, node, tree=tree)
            result.interrupted = True
        except BaseException as exc:  # noqa: BLE001 - every failure of user code is a value
            error = _error_from(exc, filename, lines, node, tree=tree)
            if hidden and isinstance(exc, NameError) and _bare_name(exc) in hidden:
                name = _bare_name(exc)
                error.hint = msg("hint.write_torch", "en", name=name)
        session.budget.active = False
        clean = error is None and REFUSALS[0] == refusals   # nothing refused, even if caught
        if channel is not None:
            channel.end(session, clean, src, filename, trusted)
        if error is not None:
            if error.kind in ("budget", "interrupt") and hasattr(session.api, "reset_state"):
                session.api.reset_state()   # grad mode may have been left off mid-statement
            stmt.error = error
            if replaying is None:
                fail(error)
        elif clean:
            exact = _exact_segment(lines, node)
            session.succeeded.append(exact)
            session.transcript.append(Ran(exact, echoed))
        if before is not None:
            after = _grad_snapshot(session)
            stmt.grads_changed = tuple(n for n, v in after.items()
                                       if v[0] != id(None) and before.get(n) != v)
        result.statements.append(stmt)
        if session.after_statement is not None:
            session.after_statement(stmt)
        if error is not None and (result.interrupted or not keep_going) and replaying is None:
            break
    if replaying is not None:
        replaying.restore()


class _Quiet:
    """Nothing a replayed statement does is shown (its output, value, errors, warnings)."""

    FIELDS = ("write_out", "display", "report", "warn", "after_statement")

    def __init__(self, session):
        self.session = session
        self.saved = [getattr(session, f) for f in self.FIELDS]
        session.write_out = session.display = lambda *args: None
        session.report = session.warn = session.after_statement = None

    def restore(self):
        for f, value in zip(self.FIELDS, self.saved):
            setattr(self.session, f, value)
