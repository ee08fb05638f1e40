"""Compile a checked Python AST into closures, once.

Each statement becomes `run(env) -> None | BREAK | CONTINUE | RETURN`, each
expression `ev(env) -> value`, where `env` is the dict of the running scope
(the session namespace at top level, a fresh dict per call or comprehension).
Names are resolved at compile time (local, enclosing, global), so a load is a
dict lookup.  Only node types in policy.STATEMENTS / policy.EXPRESSIONS are
compiled; everything else raises CompileError.  No user text is ever passed
to eval/exec/compile.
"""
import ast
import builtins
import operator
import sys

from gradrepl.lang.classes import is_subclassable, is_user_class, make_class, make_super
from gradrepl.lang.errors import NotSupported, suggest, without_internals
from gradrepl.lang.generators import GeneratorCompiler, has_yield
from gradrepl.lang.facade import Later, autograd_function, module, pytype, refusal
from gradrepl.lang.policy import CONSTANT_TYPES, EXCEPTIONS, EXPRESSIONS, IMPORTS, LATER, \
    STATEMENTS, UNSUPPORTED, USER_DUNDERS, is_private
from gradrepl.lang.runtime import BINOPS, BREAK, CONTINUE, INPLACE, PARENT, RETURN, RETVAL, \
    Params, check_text, contains, count_refusal, enter_context, function, format_value, items_exceeded, materialize, \
    safe_ascii, safe_repr, safe_str
from gradrepl.limits import LIMITS
from gradrepl.messages import msg

_HOST_BUILTINS = frozenset(dir(builtins))

LOC = "gradrepl_loc"
EMPTY = {}
EXCEPTION_SET = frozenset(EXCEPTIONS)
# Never handed to user `except` clauses (nor do they run user `finally` blocks).
UNCATCHABLE = (RecursionError, MemoryError)


def decorator_ok(dec, api):
    """DECISIONS: user functions and grad-mode objects (torch.no_grad() ...) only; also the
    grad-mode classes themselves (`@torch.no_grad` without the call, as PyTorch allows)."""
    return (type(dec) is function or api.public_attrs(dec) is not None
            or (type(dec) is pytype and getattr(dec.host, "gradrepl_decorator", False)))


class CompileError(Exception):
    """A refusal found while compiling: `exc` is what the learner sees, `node` where."""

    def __init__(self, exc, node):
        super().__init__(str(exc))
        self.exc = exc
        self.node = node


def not_supported(what, node):
    exc = NotSupported(f"{what} is not supported in gradrepl")
    return CompileError(exc, node)


def private_name(name, node):
    return CompileError(NameError(f"name '{name}' is not defined (names starting with '_' "
                                  f"are not available in gradrepl)"), node)


def mark(exc, node):
    """Remember the innermost statement an exception passed through."""
    try:
        if LOC not in exc.__dict__:
            exc.__dict__[LOC] = (node.lineno, node.col_offset)
    except AttributeError:
        pass


class Scope:
    __slots__ = ("kind", "locals", "parent", "outer")

    def __init__(self, kind, names, parent, outer=frozenset()):
        self.kind = kind
        self.locals = names
        self.parent = parent
        self.outer = outer      # names declared `nonlocal` here


def nonlocal_names(nodes):
    """Names a function body declares nonlocal (not those of nested functions)."""
    out = {}
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Nonlocal):
            for name in n.names:
                out.setdefault(name, n)
            continue
        if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return out


def bound_names(nodes):
    """Names a function body binds (Python's rule for what is local)."""
    out = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            out.add(n.name)
            stack.extend(n.decorator_list)
            if isinstance(n, ast.FunctionDef):
                stack.extend(n.args.defaults)
                stack.extend(d for d in n.args.kw_defaults if d is not None)
            else:
                stack.extend(n.bases)
            continue
        if isinstance(n, ast.Lambda):
            stack.extend(n.args.defaults)
            stack.extend(d for d in n.args.kw_defaults if d is not None)
            continue
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            stack.append(n.generators[0].iter)
            out.update(w.target.id for w in ast.walk(n) if isinstance(w, ast.NamedExpr))
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for alias in n.names:
                out.add((alias.asname or alias.name).split(".")[0])
        stack.extend(ast.iter_child_nodes(n))
    return out


# What `pip install torch` brings along (importable next to PyTorch, refused here); any other
# module that is not in the standard library is one a plain PyTorch install does not have.
WITH_PYTORCH = frozenset(("numpy", "sympy", "mpmath", "networkx", "jinja2", "markupsafe", "filelock", "fsspec",
                          "typing_extensions", "setuptools", "pkg_resources", "pip", "torchgen", "functorch"))

FUTURE_FEATURES = frozenset(("nested_scopes", "generators", "division", "absolute_import", "with_statement",
                             "print_function", "unicode_literals", "barry_as_FLUFL", "generator_stop",
                             "annotations"))


def comp_targets(generators):
    out = set()
    for g in generators:
        for n in ast.walk(g.target):
            if isinstance(n, ast.Name):
                out.add(n.id)
    return out


def plain_keywords(node):
    """A call's keywords are all `name=value`, each name once (keyword_call's case)."""
    names = [kw.arg for kw in node.keywords]
    return None not in names and len(set(names)) == len(names)


class Compiler(GeneratorCompiler):
    """Compiles statements for one session: globals `G`, fallbacks (builtins, bare torch)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.G = ctx.namespace
        self.fallback = ctx.fallback
        self.budget = ctx.budget
        self.access = ctx.access
        self.module_scope = Scope("module", set(), None)
        self.classes = []       # (class cell, name of self) for each method being compiled
        self.qualpath = []      # "outer.<locals>" prefixes: Python's __qualname__ of a def

    # --- entry points -----------------------------------------------------------------

    def statement(self, node):
        return self.stmt(node, self.module_scope, loops=0)

    def expression(self, node):
        return self.expr(node, self.module_scope)

    # --- statements ---------------------------------------------------------------------

    def stmt(self, node, scope, loops):
        kind = type(node)
        if kind not in STATEMENTS:
            raise self.refuse(node)
        return getattr(self, "s_" + kind.__name__)(node, scope, loops)

    def refuse(self, node):
        what = UNSUPPORTED.get(type(node))
        if what is None:
            what = f"'{type(node).__name__}'"
        return not_supported(what, node)

    def block(self, nodes, scope, loops):
        stmts = tuple(self.stmt(n, scope, loops) for n in nodes)
        where = dict(zip(stmts, nodes))

        def run(env):
            try:
                for s in stmts:
                    r = s(env)
                    if r is not None:
                        return r
            except BaseException as exc:
                mark(exc, where[s])
                raise
            return None
        return run

    def s_Pass(self, node, scope, loops):
        return lambda env: None

    def s_Expr(self, node, scope, loops):
        ev = self.expr(node.value, scope)

        def run(env):
            ev(env)
        return run

    def s_Assign(self, node, scope, loops):
        value = self.expr(node.value, scope)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and not self.store_depth(node.targets[0].id, scope):
            name = self.store_name(node.targets[0])

            def run(env):
                env[name] = value(env)
            return run
        stores = [self.target(t, scope) for t in node.targets]

        def run_many(env):
            v = value(env)
            for store in stores:
                store(env, v)
        return run_many

    def s_AnnAssign(self, node, scope, loops):
        if node.value is None:
            return lambda env: None
        value = self.expr(node.value, scope)
        store = self.target(node.target, scope)

        def run(env):
            store(env, value(env))
        return run

    def s_AugAssign(self, node, scope, loops):
        op = INPLACE[type(node.op).__name__]
        value = self.expr(node.value, scope)
        t = node.target
        if isinstance(t, ast.Name):
            put = self.putter(self.store_name(t), scope)
            load = self.load_name(t, scope)

            def run(env):
                put(env, op(load(env), value(env)))
            return run
        if isinstance(t, ast.Attribute):
            self.check_attr(t)
            obj_ev = self.expr(t.value, scope)
            attr = t.attr
            get, put = self.access.get, self.access.set

            def run_attr(env):
                obj = obj_ev(env)
                put(obj, attr, op(get(obj, attr), value(env)))
            return run_attr
        obj_ev = self.expr(t.value, scope)
        key_ev = self.subscript_key(t.slice, scope)

        def run_item(env):
            obj = obj_ev(env)
            key = key_ev(env)
            obj[key] = op(obj[key], value(env))
        return run_item

    def s_If(self, node, scope, loops):
        test = self.expr(node.test, scope)
        body = self.block(node.body, scope, loops)
        orelse = self.block(node.orelse, scope, loops) if node.orelse else None

        def run(env):
            if test(env):
                return body(env)
            if orelse is not None:
                return orelse(env)
        return run

    def s_For(self, node, scope, loops):
        it_ev = self.expr(node.iter, scope)
        body = self.block(node.body, scope, loops + 1)
        orelse = self.block(node.orelse, scope, loops) if node.orelse else None
        b = self.budget
        if isinstance(node.target, ast.Name) and not self.store_depth(node.target.id, scope):
            name = self.store_name(node.target)

            def run(env):
                for item in it_ev(env):
                    b.countdown -= 1
                    if b.countdown <= 0:
                        b.refill()
                    env[name] = item
                    r = body(env)
                    if r is not None:
                        if r is BREAK:
                            return None
                        if r is not CONTINUE:
                            return r
                if orelse is not None:
                    return orelse(env)
            return run
        store = self.target(node.target, scope)

        def run_unpack(env):
            for item in it_ev(env):
                b.countdown -= 1
                if b.countdown <= 0:
                    b.refill()
                store(env, item)
                r = body(env)
                if r is not None:
                    if r is BREAK:
                        return None
                    if r is not CONTINUE:
                        return r
            if orelse is not None:
                return orelse(env)
        return run_unpack

    def s_While(self, node, scope, loops):
        test = self.expr(node.test, scope)
        body = self.block(node.body, scope, loops + 1)
        orelse = self.block(node.orelse, scope, loops) if node.orelse else None
        b = self.budget

        def run(env):
            while test(env):
                b.countdown -= 1
                if b.countdown <= 0:
                    b.refill()
                r = body(env)
                if r is not None:
                    if r is BREAK:
                        return None
                    if r is not CONTINUE:
                        return r
            if orelse is not None:
                return orelse(env)
        return run

    def s_Break(self, node, scope, loops):
        return lambda env: BREAK

    def s_Continue(self, node, scope, loops):
        return lambda env: CONTINUE

    def s_Return(self, node, scope, loops):
        if node.value is None:
            def run_none(env):
                env[RETVAL] = None
                return RETURN
            return run_none
        value = self.expr(node.value, scope)

        def run(env):
            env[RETVAL] = value(env)
            return RETURN
        return run

    def s_Delete(self, node, scope, loops):
        dels = []
        for t in node.targets:
            if isinstance(t, ast.Name):
                name = self.store_name(t)

                def d_name(env, name=name):
                    try:
                        del env[name]
                    except KeyError:
                        raise NameError(f"name '{name}' is not defined") from None
                dels.append(d_name)
            elif isinstance(t, ast.Attribute):
                self.check_attr(t)
                obj_ev = self.expr(t.value, scope)
                delete = self.access.delete

                def d_attr(env, obj_ev=obj_ev, attr=t.attr):
                    delete(obj_ev(env), attr)
                dels.append(d_attr)
            elif isinstance(t, ast.Subscript):
                obj_ev = self.expr(t.value, scope)
                key_ev = self.subscript_key(t.slice, scope)

                def d_item(env, obj_ev=obj_ev, key_ev=key_ev):
                    del obj_ev(env)[key_ev(env)]
                dels.append(d_item)
            else:
                for sub in t.elts:
                    dels.append(self.s_Delete(ast.Delete(targets=[sub]), scope, loops))

        def run(env):
            for d in dels:
                d(env)
        return run

    def s_Assert(self, node, scope, loops):
        test = self.expr(node.test, scope)
        msg = self.expr(node.msg, scope) if node.msg is not None else None

        def run(env):
            if not test(env):
                if msg is None:
                    raise AssertionError()
                raise AssertionError(msg(env))
        return run

    def s_Raise(self, node, scope, loops):
        ctx = self.ctx
        exc_ev = self.expr(node.exc, scope) if node.exc is not None else None
        cause_ev = self.expr(node.cause, scope) if node.cause is not None else None

        def run(env):
            if exc_ev is None:
                if not ctx.handling:
                    raise RuntimeError("No active exception to reraise")
                raise ctx.handling[-1]
            exc = exc_ev(env)
            if type(exc) is type and exc in EXCEPTION_SET or user_exception_class(exc):
                exc = exc()
            elif not isinstance(exc, Exception):
                raise TypeError("exceptions must derive from BaseException")
            exc.__dict__.pop(LOC, None)
            if cause_ev is not None:
                cause = cause_ev(env)
                raise exc from (cause if isinstance(cause, Exception) else None)
            raise exc
        return run

    def s_Try(self, node, scope, loops):
        ctx = self.ctx
        body = self.block(node.body, scope, loops)
        handlers = []
        for h in node.handlers:
            type_ev = self.expr(h.type, scope) if h.type is not None else None
            if h.name is not None and is_private(h.name):
                raise private_name(h.name, h)
            handlers.append((type_ev, h.name, self.block(h.body, scope, loops)))
        orelse = self.block(node.orelse, scope, loops) if node.orelse else None
        final = self.block(node.finalbody, scope, loops) if node.finalbody else None
        find = self.handler_finder(handlers)

        def inner(env):
            try:
                r = body(env)
            except UNCATCHABLE:
                raise
            except Exception as exc:
                exc = without_internals(exc)     # matched as the error it is
                found = find(env, exc)
                if found is None:
                    raise exc
                name, hbody = found
                caught = user_view(exc)
                if name is not None:
                    env[name] = caught
                ctx.handling.append(caught)
                try:
                    return hbody(env)
                finally:
                    ctx.handling.pop()
                    if name is not None:
                        env.pop(name, None)
            if orelse is not None:
                return orelse(env)
            return r

        if final is None:
            return inner

        def run(env):
            try:
                r = inner(env)
            except UNCATCHABLE:
                raise
            except Exception:
                fr = final(env)
                if fr is not None:
                    return fr
                raise
            fr = final(env)
            return fr if fr is not None else r
        return run

    @staticmethod
    def handler_finder(handlers):
        def find(env, exc):
            for type_ev, name, hbody in handlers:
                if type_ev is None:
                    return name, hbody
                spec = type_ev(env)
                specs = spec if type(spec) is tuple else (spec,)
                for s in specs:
                    if not (type(s) is type and s in EXCEPTION_SET or user_exception_class(s)):
                        raise TypeError("catching classes that do not inherit from "
                                        "BaseException is not allowed")
                if isinstance(exc, specs):
                    return name, hbody
            return None
        return find

    def s_With(self, node, scope, loops):
        body = self.block(node.body, scope, loops)
        for item in reversed(node.items):
            body = self.with_item(item, body, scope)
        return body

    def with_item(self, item, body, scope):
        mgr_ev = self.expr(item.context_expr, scope)
        store = self.target(item.optional_vars, scope) if item.optional_vars is not None else None
        api = self.ctx.api
        access = self.access

        def run(env):
            mgr = mgr_ev(env)
            kind, value = enter_context(mgr, api, access)
            if store is not None:
                store(env, value)
            try:
                r = body(env)
            except Exception as exc:
                if not kind.__exit__(mgr, type(exc), exc, None):
                    raise
                return None
            except BaseException as exc:
                kind.__exit__(mgr, type(exc), exc, None)
                raise
            kind.__exit__(mgr, None, None, None)
            return r
        return run

    def s_Nonlocal(self, node, scope, loops):
        if scope.kind == "module":
            raise CompileError(SyntaxError("nonlocal declaration not allowed at module level"),
                               node)
        return lambda env: None

    def s_FunctionDef(self, node, scope, loops):
        put = self.putter(self.store_name(node), scope)
        make = self.function_maker(node, self.qualname(node.name), scope, node.body,
                                   is_expr=False)
        decorators = [self.expr(d, scope) for d in node.decorator_list]
        call = self.ctx.call
        api = self.ctx.api

        def run(env):
            fn = make(env)
            for dec_ev in reversed(decorators):
                dec = dec_ev(env)
                # DECISIONS: user functions and grad-mode objects (torch.no_grad() ...) only
                if not decorator_ok(dec, api):
                    raise TypeError(f"'{self.access.type_label(dec)}' cannot be used as a "
                                    f"decorator in gradrepl (use a function you defined or "
                                    f"torch.no_grad())")
                fn = call(dec, (fn,), EMPTY)
            put(env, fn)
        return run

    def qualname(self, name):
        return f"{self.qualpath[-1]}.{name}" if self.qualpath else name

    def function_maker(self, node, name, scope, body, is_expr, default_scope=None):
        self.qualpath.append(f"{name}.<locals>")
        try:
            return self.make_function_maker(node, name, scope, body, is_expr, default_scope)
        finally:
            self.qualpath.pop()

    def make_function_maker(self, node, name, scope, body, is_expr, default_scope):
        args = node.args
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs,
                  *[x for x in (args.vararg, args.kwarg) if x is not None]]:
            if is_private(a.arg):
                raise private_name(a.arg, a)
        names = [a.arg for a in [*args.posonlyargs, *args.args]]
        params = Params(names, [a.arg for a in args.posonlyargs],
                        args.vararg.arg if args.vararg else None,
                        [a.arg for a in args.kwonlyargs],
                        args.kwarg.arg if args.kwarg else None)
        local_names = set(names) | set(params.kwonly)
        local_names |= {x for x in (params.vararg, params.kwarg) if x}
        if is_expr:
            inner = Scope("function", local_names | bound_names([body]), scope)
            code = self.expr(body, inner)
        else:
            declared = nonlocal_names(body)
            for nl, where in declared.items():
                if nl in local_names:
                    raise CompileError(SyntaxError(f"name '{nl}' is parameter and nonlocal"),
                                       where)
                if is_private(nl):
                    raise private_name(nl, where)
                s = scope
                while s.kind != "module" and not (s.kind == "function" and nl in s.locals):
                    s = s.parent
                if s.kind == "module":
                    raise CompileError(SyntaxError(f"no binding for nonlocal '{nl}' found"),
                                       where)
            inner = Scope("function", (local_names | bound_names(body)) - set(declared), scope,
                          frozenset(declared))
            if has_yield(body):
                code = self.generator_body(body, inner, name)
                is_expr = True      # the body's value (the generator) is the call's result
            else:
                code = self.block(body, inner, loops=0)
        dscope = default_scope or scope
        default_evs = [self.expr(d, dscope) for d in args.defaults]
        kw_default_evs = [(a.arg, self.expr(d, dscope))
                          for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
        budget = self.budget

        def make(env, denv=None):
            denv = env if denv is None else denv
            defaults = tuple(d(denv) for d in default_evs)
            kwdefaults = {k: d(denv) for k, d in kw_default_evs}
            return function(name, params, code, env, defaults, kwdefaults, budget, is_expr)
        return make

    def s_ClassDef(self, node, scope, loops):
        """`class Name:`, `class Name(Base, ...)` (each Base one of the learner's classes or a host class
        marked gradrepl_subclassable, as nn.Module), `class Name(torch.autograd.Function)`."""
        if node.keywords:
            raise not_supported("a class keyword (metaclass=...)", node)
        if node.decorator_list:
            raise not_supported("a class decorator", node)
        if any(isinstance(b, ast.Starred) for b in node.bases):
            raise not_supported("a starred base class", node)
        put = self.putter(self.store_name(node), scope)
        assigned = set()
        for item in node.body:
            if isinstance(item, (ast.Assign, ast.AnnAssign)):
                for t in (item.targets if isinstance(item, ast.Assign) else [item.target]):
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            assigned.add(n.id)
        cls_scope = Scope("class", assigned, scope)
        qual = self.qualname(node.name)
        cell = [None]           # the class, once made: what super() inside its methods means
        doc = None
        steps = []              # (attr, kind, make) in source order; kind None: a statement
        for i, item in enumerate(node.body):
            if isinstance(item, ast.Pass):
                continue
            if isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant):
                if i == 0 and isinstance(item.value.value, str):
                    doc = item.value.value
                continue
            if isinstance(item, (ast.Assign, ast.AnnAssign)):
                for t in (item.targets if isinstance(item, ast.Assign) else [item.target]):
                    if not isinstance(t, ast.Name):
                        raise not_supported("a class attribute that is not a plain name", item)
                    self.check_class_attr(t.id, item)
                names = {n.id for t in (item.targets if isinstance(item, ast.Assign)
                                        else [item.target]) for n in ast.walk(t)
                         if isinstance(n, ast.Name)}
                steps.append((names, None, self.stmt(item, cls_scope, 0)))
                continue
            if not isinstance(item, ast.FunctionDef):
                raise not_supported(f"{UNSUPPORTED.get(type(item), type(item).__name__)} in a "
                                    f"class body (a class holds methods and attributes)", item)
            self.check_class_attr(item.name, item)
            kind = "method"
            decorators = []
            for dec in item.decorator_list:
                if isinstance(dec, ast.Name) and dec.id in ("staticmethod", "classmethod",
                                                            "property") and kind == "method":
                    kind = {"staticmethod": "static", "classmethod": "class"}.get(dec.id, dec.id)
                else:
                    decorators.append(self.expr(dec, cls_scope))
            args = item.args
            first = [a.arg for a in [*args.posonlyargs, *args.args]][:1]
            self.classes.append((cell, first[0] if first and kind != "static" else None))
            try:
                make = self.function_maker(item, f"{qual}.{item.name}", scope, item.body,
                                           is_expr=False, default_scope=cls_scope)
            finally:
                self.classes.pop()
            steps.append((item.name, kind, (make, decorators)))
        bases = node.bases
        if len(bases) == 1 and isinstance(bases[0], ast.Name) and bases[0].id == "object":
            bases = []                                                # class A(object): plain
        base_evs = [self.expr(b, scope) for b in bases]
        ctx = self.ctx
        call = ctx.call
        api = ctx.api

        def run(env):
            many = [ev(env) for ev in base_evs]
            base = many[0] if len(many) == 1 else tuple(many) if many else None
            cenv = {PARENT: env}
            kinds = {}
            for attr, kind, step in steps:
                if kind is None:
                    step(cenv)
                    for n in attr:
                        kinds.pop(n, None)
                    continue
                make, decorators = step
                fn = make(env, cenv)
                for dec_ev in reversed(decorators):
                    dec = dec_ev(cenv)
                    if not decorator_ok(dec, api):
                        raise TypeError(f"'{self.access.type_label(dec)}' cannot be used as a "
                                        f"decorator in gradrepl (use a function you defined or "
                                        f"torch.no_grad())")
                    fn = call(dec, (fn,), EMPTY)
                kinds[attr] = kind
                cenv[attr] = fn
            entries = [(k, kinds.get(k, "value"), v) for k, v in cenv.items() if k is not PARENT]
            if base is not None and base is ctx.autograd_function_base():
                put(env, self.autograd_class(node.name, entries))
                return
            bad = [b for b in many if not (is_user_class(b) or is_subclassable(b) or b in EXCEPTION_SET
                                           or b is object and len(many) > 1)]
            if not bad:
                cls = make_class(node.name, qual, base, entries, doc)
                cell[0] = cls
                put(env, cls)
                return
            base = bad[0]
            raise NotSupported(f"a class with base {safe_repr(base)} is not "
                               f"supported in gradrepl (a base is one of your own classes, "
                               f"nn.Module, a Dataset, an exception class or "
                               f"torch.autograd.Function)")
        return run

    def check_class_attr(self, attr, node):
        if attr in USER_DUNDERS:
            return
        if attr.startswith("__") and attr.endswith("__"):
            raise not_supported(f"defining the special method '{attr[2:-2]}' in a class "
                                f"(__init__ is the only one a gradrepl class may define)", node)
        if is_private(attr):
            raise private_name(attr, node)
        if attr.startswith("gradrepl_"):
            raise CompileError(NameError(f"the name '{attr}' is reserved in gradrepl"), node)

    def autograd_class(self, name, entries):
        """`class Name(torch.autograd.Function)`: static forward/backward, optionally in the
        setup_context style (forward without ctx, then setup_context(ctx, inputs, output))."""
        made = {attr: value for attr, _, value in entries}
        if "forward" in made and "backward" not in made and "jvp" in made:
            made["backward"] = self.ctx.api.missing_backward     # forward mode only
        if "forward" not in made or "backward" not in made:
            raise NotSupported("a torch.autograd.Function without static forward and "
                               "backward is not supported in gradrepl")
        forward = made["forward"]
        if "setup_context" in made:
            call = self.ctx.call
            user_forward, setup = forward, made["setup_context"]

            def forward(ctx, *args):
                output = call(user_forward, args, EMPTY)
                call(setup, (ctx, args, output), EMPTY)
                return output
        engine_obj = self.ctx.api.custom_function(name, forward, made["backward"], {"jvp": made.get("jvp")})
        return autograd_function(name, engine_obj, made)

    def s_Import(self, node, scope, loops):
        binds = []
        for alias in node.names:
            path = alias.name
            if alias.asname is not None:
                target = self.check_store_name(alias.asname, node)
                getter = self.module_getter(path, node)
            else:
                target = self.check_store_name(path.split(".")[0], node)
                top = path.split(".")[0]
                full = self.module_getter(path, node)
                getter = full if top == path else self.then(full, self.module_getter(top, node))
            binds.append((target, getter))

        def run(env):
            for target, getter in binds:
                env[target] = getter()
        return run

    @staticmethod
    def then(first, second):
        def run():
            first()
            return second()
        return run

    def module_getter(self, path, node):
        ctx = self.ctx
        if path in IMPORTS:
            route = IMPORTS[path]

            def get():
                value = ctx.modules[route[0]]
                for part in route[1:]:
                    value = value.entries.get(part) if type(value) is module else None
                    if type(value) is not module:
                        raise ImportError(f"No module named '{path}' in gradrepl")
                return value
            return get
        for later in LATER:
            if path == later or path.startswith(later + "."):
                def get_later():
                    raise ImportError(f"{path} is not available in gradrepl yet (torch.nn "
                                      f"modules and torch.optim come later)")
                return get_later
        top = path.split(".")[0]
        if top == "numpy":
            def not_offered_numpy():
                raise count_refusal(ImportError(msg("numpy.refused", "en", name=path.split(".", 1)[1])))
            return not_offered_numpy
        if top in ("math", "random"):
            def not_a_package():
                raise ImportError(f"No module named '{path}'; '{top}' is not a package")
            return not_a_package
        if top == "torch":
            unavailable = self.access.unavailable

            def not_offered():
                value = ctx.modules["torch"].entries.get(path.split(".")[1])
                if type(value) in unavailable:
                    raise ImportError(str(refusal(value)))
                raise ImportError(f"No module named '{path}' in gradrepl")
            return not_offered

        if top not in sys.stdlib_module_names and top not in WITH_PYTORCH:
            def missing():              # torchvision, matplotlib, pandas: as in a plain PyTorch install
                exc = ModuleNotFoundError(f"No module named '{top}'")
                exc.gradrepl_hint = msg("hint.no_module", "en", name=top)
                raise exc
            return missing

        def refused():
            raise count_refusal(ImportError(msg("import.refused", "en", name=top)))
        return refused

    def s_ImportFrom(self, node, scope, loops):
        path = node.module or ""
        if path == "__future__" and not node.level:
            return self.future_import(node)
        if node.level:
            def refused(env):
                raise count_refusal(ImportError("relative imports are not allowed in gradrepl"))
            return refused
        getter = self.module_getter(path, node)
        names = []
        for alias in node.names:
            if alias.name == "*":
                raise not_supported("'from ... import *'", node)
            if is_private(alias.name):
                raise private_name(alias.name, node)
            names.append((alias.name, self.check_store_name(alias.asname or alias.name, node)))
        unavailable = self.access.unavailable

        def run(env):
            mod = getter()
            for attr, target in names:
                try:
                    value = mod.entries[attr]
                except KeyError:
                    if mod.later or (mod.name, attr) == ("torch", "optim"):
                        raise ImportError(f"{mod.name}.{attr} is not available in gradrepl yet "
                                          f"(torch.nn modules and torch.optim come later)") \
                            from None
                    raise ImportError(f"cannot import name '{attr}' from '{mod.name}'") from None
                if type(value) in unavailable:
                    exc = refusal(value)
                    raise ImportError(str(exc)) if type(value) is Later else exc
                env[target] = value
        return run

    @staticmethod
    def future_import(node):
        """`from __future__ import print_function` (old tutorials): Python 3 has them all."""
        unknown = [a.name for a in node.names if a.name not in FUTURE_FEATURES]

        def run(env):
            if unknown:
                raise SyntaxError("not a chance" if unknown[0] == "braces"
                                  else f"future feature {unknown[0]} is not defined")
        return run

    # --- targets ---------------------------------------------------------------------------

    def store_depth(self, name, scope, walrus=False):
        """How many scopes up a store of `name` goes: 0 for a local; `nonlocal` names and
        `:=` inside comprehensions bind further out."""
        depth = 0
        s = scope
        if walrus:
            while s.kind == "comprehension":
                s = s.parent
                depth += 1
        if name in s.outer:
            s = s.parent
            depth += 1
            while s.kind != "module" and not (s.kind == "function" and name in s.locals):
                s = s.parent
                depth += 1
        return depth

    def putter(self, name, scope, walrus=False):
        depth = self.store_depth(name, scope, walrus)
        if depth == 0:
            def put(env, v):
                env[name] = v
            return put

        def put_outer(env, v):
            e = env
            for _ in range(depth):
                e = e[PARENT]
            e[name] = v
        return put_outer

    def e_NamedExpr(self, node, scope):
        value = self.expr(node.value, scope)
        put = self.putter(self.store_name(node.target), scope, walrus=True)

        def ev(env):
            v = value(env)
            put(env, v)
            return v
        return ev

    def check_store_name(self, name, node):
        if is_private(name):
            raise private_name(name, node)
        return name

    def store_name(self, node):
        if isinstance(node, ast.Name):
            return self.check_store_name(node.id, node)
        return self.check_store_name(node.name, node)

    def check_attr(self, node):
        if is_private(node.attr):
            raise CompileError(AttributeError(f"attribute '{node.attr}' is not available in gradrepl "
                                              f"(names starting with '_' are refused)"), node)

    def target(self, t, scope):
        """store(env, value) for an assignment target."""
        if isinstance(t, ast.Name):
            return self.putter(self.store_name(t), scope)
        if isinstance(t, ast.Attribute):
            self.check_attr(t)
            obj_ev = self.expr(t.value, scope)
            attr = t.attr
            put = self.access.set

            def store_attr(env, v):
                put(obj_ev(env), attr, v)
            return store_attr
        if isinstance(t, ast.Subscript):
            obj_ev = self.expr(t.value, scope)
            key_ev = self.subscript_key(t.slice, scope)

            def store_item(env, v):
                obj = obj_ev(env)
                obj[key_ev(env)] = v
            return store_item
        if isinstance(t, (ast.Tuple, ast.List)):
            return self.unpack_target(t, scope)
        raise self.refuse(t)

    def unpack_target(self, t, scope):
        stars = [i for i, e in enumerate(t.elts) if isinstance(e, ast.Starred)]
        if len(stars) > 1:
            raise CompileError(SyntaxError("multiple starred expressions in assignment"), t)
        star = stars[0] if stars else None
        stores = [self.target(e.value if isinstance(e, ast.Starred) else e, scope)
                  for e in t.elts]
        n = len(stores)
        budget = self.budget
        label = self.access.type_label

        def store(env, v):
            if type(v) is tuple or type(v) is list:
                values = v
            else:
                kind = type(v)
                if not (hasattr(kind, "__iter__") or hasattr(kind, "__getitem__")):
                    raise TypeError(f"cannot unpack non-iterable {label(v)} object")
                values = materialize(v, budget)
            if star is None:
                if len(values) != n:
                    if len(values) > n:
                        raise ValueError(f"too many values to unpack (expected {n})")
                    raise ValueError(f"not enough values to unpack (expected {n}, "
                                     f"got {len(values)})")
                for s, x in zip(stores, values):
                    s(env, x)
                return
            after = n - star - 1
            if len(values) < n - 1:
                raise ValueError(f"not enough values to unpack (expected at least {n - 1}, "
                                 f"got {len(values)})")
            for s, x in zip(stores[:star], values[:star]):
                s(env, x)
            stores[star](env, list(values[star:len(values) - after]))
            for s, x in zip(stores[star + 1:], values[len(values) - after:]):
                s(env, x)
        return store

    # --- expressions ---------------------------------------------------------------------

    def expr(self, node, scope):
        kind = type(node)
        if kind not in EXPRESSIONS:
            raise self.refuse(node)
        return getattr(self, "e_" + kind.__name__)(node, scope)

    def e_Constant(self, node, scope):
        v = node.value
        if not isinstance(v, CONSTANT_TYPES + (bytes,)):
            raise self.refuse(node)
        return lambda env: v

    def e_Name(self, node, scope):
        return self.load_name(node, scope)

    def load_name(self, node, scope):
        name = node.id
        if is_private(name):
            raise private_name(name, node)
        depth = 0
        s = scope
        while s.kind != "module" and name not in s.locals:
            s = s.parent
            depth += 1
        if s.kind == "module":
            return self.global_load(name)
        if depth == 0 and s.kind == "class":
            outer = self.global_load(name)

            def load_class_name(env):       # Python's LOAD_NAME: the class body, then globals
                try:
                    return env[name]
                except KeyError:
                    return outer(env)
            return load_class_name
        if depth == 0:
            def load_local(env):
                try:
                    return env[name]
                except KeyError:
                    raise UnboundLocalError(f"cannot access local variable '{name}' where it "
                                            f"is not associated with a value") from None
            return load_local

        def load_free(env):
            e = env
            for _ in range(depth):
                e = e[PARENT]
            try:
                return e[name]
            except KeyError:
                raise NameError(f"cannot access free variable '{name}' where it is not "
                                f"associated with a value in enclosing scope") from None
        return load_free

    def global_load(self, name):
        G = self.G
        fallback = self.fallback
        modules = self.ctx.modules
        unavailable = self.access.unavailable

        def load_global(env):
            try:
                return G[name]
            except KeyError:
                pass
            try:
                return fallback[name]
            except KeyError:
                raise name_error(name, G, fallback, modules, unavailable) from None
        return load_global

    def e_Attribute(self, node, scope):
        self.check_attr(node)
        obj_ev = self.expr(node.value, scope)
        attr = node.attr
        get = self.access.get
        return lambda env: get(obj_ev(env), attr)

    def e_Subscript(self, node, scope):
        obj_ev = self.expr(node.value, scope)
        key_ev = self.subscript_key(node.slice, scope)
        return lambda env: obj_ev(env)[key_ev(env)]

    def subscript_key(self, node, scope):
        if isinstance(node, ast.Slice):
            return self.e_Slice(node, scope)
        if isinstance(node, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in node.elts):
            parts = [self.subscript_key(e, scope) for e in node.elts]
            return lambda env: tuple([p(env) for p in parts])
        return self.expr(node, scope)

    def e_Slice(self, node, scope):
        parts = [self.expr(p, scope) if p is not None else None
                 for p in (node.lower, node.upper, node.step)]
        lo, hi, st = parts

        def ev(env):
            return slice(lo(env) if lo else None, hi(env) if hi else None,
                         st(env) if st else None)
        return ev

    def e_BinOp(self, node, scope):
        op = BINOPS[type(node.op).__name__]
        left = self.expr(node.left, scope)
        if isinstance(node.right, ast.Constant) and isinstance(node.right.value, (int, float)):
            c = node.right.value
            return lambda env: op(left(env), c)
        right = self.expr(node.right, scope)
        return lambda env: op(left(env), right(env))

    def e_UnaryOp(self, node, scope):
        operand = self.expr(node.operand, scope)
        kind = type(node.op)
        if kind in (ast.USub, ast.UAdd) and isinstance(node.operand, ast.Constant) \
                and type(node.operand.value) in (int, float):
            v = -node.operand.value if kind is ast.USub else node.operand.value
            return lambda env: v      # `-1`: folded, as CPython folds it
        if kind is ast.Not:
            return lambda env: not operand(env)
        op = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}[kind]
        return lambda env: op(operand(env))

    def e_BoolOp(self, node, scope):
        values = [self.expr(v, scope) for v in node.values]
        if isinstance(node.op, ast.And):
            def ev_and(env):
                v = None
                for f in values:
                    v = f(env)
                    if not v:
                        return v
                return v
            return ev_and

        def ev_or(env):
            v = None
            for f in values:
                v = f(env)
                if v:
                    return v
            return v
        return ev_or

    _COMPARE = {
        ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_,
        ast.IsNot: operator.is_not, ast.In: contains,
        ast.NotIn: lambda a, b: not contains(a, b),
    }

    def e_Compare(self, node, scope):
        left = self.expr(node.left, scope)
        ops = [self._COMPARE[type(o)] for o in node.ops]
        rights = [self.expr(c, scope) for c in node.comparators]
        if len(ops) == 1:
            op, right = ops[0], rights[0]
            return lambda env: op(left(env), right(env))
        pairs = list(zip(ops, rights))

        def ev(env):
            a = left(env)
            result = True
            for op, right in pairs:
                b = right(env)
                result = op(a, b)
                if not result:
                    return result
                a = b
            return result
        return ev

    def e_IfExp(self, node, scope):
        test = self.expr(node.test, scope)
        body = self.expr(node.body, scope)
        orelse = self.expr(node.orelse, scope)
        return lambda env: body(env) if test(env) else orelse(env)

    def e_Call(self, node, scope):
        func = node.func
        if isinstance(func, ast.Name) and func.id == "super" and not node.args \
                and not node.keywords:
            return self.zero_arg_super(node, scope)
        if isinstance(func, ast.Attribute) and func.attr == "__init__":
            obj_ev = self.expr(func.value, scope)
            get_init = self.access.get_init
            fn_ev = lambda env: get_init(obj_ev(env))    # noqa: E731
        else:
            starred = any(isinstance(a, ast.Starred) for a in node.args)
            if not starred and isinstance(func, ast.Attribute):
                if not node.keywords:
                    return self.method_call(node, scope)
                if plain_keywords(node):
                    return self.keyword_call(node, scope, None)     # the attribute as method_call
            fn_ev = self.expr(func, scope)
        starred = any(isinstance(a, ast.Starred) for a in node.args)
        for kw in node.keywords:
            if kw.arg is not None and is_private(kw.arg):
                raise CompileError(TypeError(f"keyword argument '{kw.arg}' is not allowed in "
                                             f"gradrepl (names starting with '_' are refused)"),
                                   node)
        call = self.ctx.call
        if not starred and node.keywords and plain_keywords(node):
            return self.keyword_call(node, scope, fn_ev)
        if not starred and not node.keywords:
            args = [self.expr(a, scope) for a in node.args]
            if len(args) == 0:
                return lambda env: call(fn_ev(env), (), EMPTY)
            if len(args) == 1:
                a0 = args[0]
                return lambda env: call(fn_ev(env), (a0(env),), EMPTY)
            if len(args) == 2:
                a0, a1 = args
                return lambda env: call(fn_ev(env), (a0(env), a1(env)), EMPTY)
            return lambda env: call(fn_ev(env), tuple([a(env) for a in args]), EMPTY)
        args_ev = self.sequence(node.args, scope)
        kws = [(kw.arg, self.expr(kw.value, scope)) for kw in node.keywords]
        label = self.access.type_label

        def ev(env):
            fn = fn_ev(env)
            args = tuple(args_ev(env))
            kwargs = {}
            for key, value_ev in kws:
                value = value_ev(env)
                if key is not None:
                    if key in kwargs:
                        raise TypeError(f"got multiple values for keyword argument '{key}'")
                    kwargs[key] = value
                    continue
                if type(value) is not dict:
                    raise TypeError(f"argument after ** must be a mapping, not {label(value)}")
                for k, v in value.items():
                    if type(k) is not str:
                        raise TypeError("keywords must be strings")
                    if is_private(k):
                        raise TypeError(f"keyword argument '{k}' is not allowed in gradrepl "
                                        f"(names starting with '_' are refused)")
                    if k in kwargs:
                        raise TypeError(f"got multiple values for keyword argument '{k}'")
                    kwargs[k] = v
            return call(fn, args, kwargs)
        return ev

    def keyword_call(self, node, scope, fn_ev):
        """`f(a, b, key=value)` without * or ** and no keyword repeated: the keywords' names are
        known here, so the call builds its dict directly; with
        fn_ev None, `obj.name(...)` resolves the attribute as method_call does. Python's
        order: the function, the positional arguments, then the keyword values."""
        for kw in node.keywords:
            if is_private(kw.arg):
                raise CompileError(TypeError(f"keyword argument '{kw.arg}' is not allowed in "
                                             f"gradrepl (names starting with '_' are refused)"),
                                   node)
        if fn_ev is None:
            self.check_attr(node.func)
            obj_ev = self.expr(node.func.value, scope)
            resolve = self.attribute_resolver(node.func.attr)
            fn_ev = lambda env: resolve(obj_ev(env))    # noqa: E731
        args = [self.expr(a, scope) for a in node.args]
        keys = tuple(kw.arg for kw in node.keywords)
        values = [self.expr(kw.value, scope) for kw in node.keywords]
        call = self.ctx.call
        if len(keys) == 1:
            (k0,), (v0,) = keys, values
            if len(args) == 2:
                a0, a1 = args
                return lambda env: call(fn_ev(env), (a0(env), a1(env)), {k0: v0(env)})
            if len(args) == 3:
                a0, a1, a2 = args
                return lambda env: call(fn_ev(env), (a0(env), a1(env), a2(env)), {k0: v0(env)})
            return lambda env: call(fn_ev(env), tuple([a(env) for a in args]), {k0: v0(env)})
        pairs = tuple(zip(keys, values))
        return lambda env: call(fn_ev(env), tuple([a(env) for a in args]),
                                {k: v(env) for k, v in pairs})

    def attribute_resolver(self, attr):
        """resolve(obj) -> obj.attr for a call made at once (method_call's lookup)."""
        get, cache = self.access.get, self.access.cache
        site = [None, None]     # the module last seen here, its attribute

        def resolve(obj):
            t = type(obj)
            allowed = cache.get(t)
            if allowed is not None and attr in allowed:
                return getattr(obj, attr)
            if t is module:
                if obj is site[0]:
                    return site[1]
                fn = get(obj, attr)
                site[0], site[1] = obj, fn
                return fn
            return get(obj, attr)
        return resolve

    def method_call(self, node, scope):
        """`obj.name(args)`: the hot path of learners' loops (tensor methods, torch.f(...),
        list.append). Same lookup rules and order as e_Attribute then a call (the attribute
        is fetched before the arguments run), without wrapping a host method that is called
        at once; a facade module's attribute is remembered per call site (modules are
        read-only)."""
        self.check_attr(node.func)
        obj_ev = self.expr(node.func.value, scope)
        attr = node.func.attr
        args = [self.expr(a, scope) for a in node.args]
        call = self.ctx.call
        resolve = self.attribute_resolver(attr)
        if len(args) == 1:
            a0 = args[0]
            if attr == "append":
                def ev_append(env):
                    obj = obj_ev(env)
                    if type(obj) is list:
                        item = a0(env)
                        if len(obj) >= LIMITS.max_items:
                            raise items_exceeded(len(obj) + 1)
                        obj.append(item)
                        return None
                    return call(resolve(obj), (a0(env),), EMPTY)
                return ev_append
            return lambda env: call(resolve(obj_ev(env)), (a0(env),), EMPTY)
        if len(args) == 0:
            return lambda env: call(resolve(obj_ev(env)), (), EMPTY)
        if len(args) == 2:
            a0, a1 = args
            return lambda env: call(resolve(obj_ev(env)), (a0(env), a1(env)), EMPTY)
        return lambda env: call(resolve(obj_ev(env)), tuple([a(env) for a in args]), EMPTY)

    def zero_arg_super(self, node, scope):
        """`super()` in a method: super(<the class>, <its first argument>)."""
        if not self.classes or self.classes[-1][1] is None:
            def no_args(env):
                raise RuntimeError("super(): no arguments")
            return no_args
        cell, self_name = self.classes[-1]
        load_self = self.load_name(ast.Name(id=self_name, ctx=ast.Load()), scope)
        return lambda env: make_super(cell[0], load_self(env))

    def sequence(self, elts, scope):
        """ev(env) -> list of the elements, *starred ones unpacked with the item cap."""
        parts = [(isinstance(e, ast.Starred), self.expr(e.value if isinstance(e, ast.Starred)
                                                         else e, scope)) for e in elts]
        if not any(s for s, _ in parts):
            evs = [p for _, p in parts]
            return lambda env: [p(env) for p in evs]
        budget = self.budget
        label = self.access.type_label

        def ev(env):
            out = []
            for is_star, p in parts:
                if is_star:
                    value = p(env)
                    kind = type(value)
                    if not (hasattr(kind, "__iter__") or hasattr(kind, "__getitem__")):
                        raise TypeError(f"Value after * must be an iterable, not {label(value)}")
                    out.extend(materialize(value, budget))
                    if len(out) > LIMITS.max_items:
                        raise items_exceeded(len(out))
                else:
                    out.append(p(env))
            return out
        return ev

    def e_List(self, node, scope):
        return self.sequence(node.elts, scope)

    def e_Tuple(self, node, scope):
        seq = self.sequence(node.elts, scope)
        if all(isinstance(e, ast.Constant) for e in node.elts):
            t = tuple(seq(None))      # `(32,)`: one tuple of constants, as CPython folds it
            return lambda env: t
        return lambda env: tuple(seq(env))

    def e_Set(self, node, scope):
        seq = self.sequence(node.elts, scope)
        return lambda env: set(seq(env))

    def e_Dict(self, node, scope):
        items = [(self.expr(k, scope) if k is not None else None, self.expr(v, scope))
                 for k, v in zip(node.keys, node.values)]
        label = self.access.type_label

        def ev(env):
            out = {}
            for k_ev, v_ev in items:
                if k_ev is None:
                    other = v_ev(env)
                    if type(other) is not dict:
                        raise TypeError(f"'{label(other)}' object is not a mapping")
                    out.update(other)
                else:
                    out[k_ev(env)] = v_ev(env)
            return out
        return ev

    def e_Lambda(self, node, scope):
        return self.function_maker(node, self.qualname("<lambda>"), scope, node.body,
                                   is_expr=True)

    def comprehension(self, node, scope, emit):
        """ev(env) for a comprehension; emit(elt_evs) -> (new_container, add(c, env))."""
        inner = Scope("comprehension", comp_targets(node.generators), scope)
        for name in inner.locals:
            if is_private(name):
                raise private_name(name, node)
        gens = []
        for i, g in enumerate(node.generators):
            if g.is_async:
                raise not_supported("'async for'", node)
            it_ev = self.expr(g.iter, scope if i == 0 else inner)
            gens.append((it_ev, self.target(g.target, inner),
                         [self.expr(c, inner) for c in g.ifs]))
        new, add = emit(inner)
        b = self.budget
        cap_check = LIMITS

        def loop(level, c, out, iterable):
            _, store, ifs = gens[level]
            last = level == len(gens) - 1
            for item in iterable:
                b.countdown -= 1
                if b.countdown <= 0:
                    b.refill()
                store(c, item)
                if ifs and not all(f(c) for f in ifs):
                    continue
                if last:
                    add(out, c)
                    if len(out) > cap_check.max_items:
                        raise items_exceeded(len(out))
                else:
                    loop(level + 1, c, out, gens[level + 1][0](c))

        first = gens[0][0]

        def ev(env):
            iterable = first(env)
            c = {PARENT: env}
            out = new()
            loop(0, c, out, iterable)
            return out
        return ev

    def e_ListComp(self, node, scope):
        def emit(inner):
            elt = self.expr(node.elt, inner)
            return list, lambda out, c: out.append(elt(c))
        return self.comprehension(node, scope, emit)


    def e_SetComp(self, node, scope):
        def emit(inner):
            elt = self.expr(node.elt, inner)
            return set, lambda out, c: out.add(elt(c))
        return self.comprehension(node, scope, emit)

    def e_DictComp(self, node, scope):
        def emit(inner):
            key = self.expr(node.key, inner)
            value = self.expr(node.value, inner)

            def add(out, c):
                out[key(c)] = value(c)
            return dict, add
        return self.comprehension(node, scope, emit)

    def e_JoinedStr(self, node, scope):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                text = v.value
                parts.append(lambda env, text=text: text)
            else:
                parts.append(self.expr(v, scope))

        def ev(env):
            s = "".join([p(env) for p in parts])
            if len(s) > LIMITS.max_items:
                raise items_exceeded(len(s))
            return s
        return ev

    def e_FormattedValue(self, node, scope):
        value = self.expr(node.value, scope)
        conv = {-1: None, 115: safe_str, 114: safe_repr, 97: safe_ascii}[node.conversion]
        spec = self.expr(node.format_spec, scope) if node.format_spec is not None else None

        def ev(env):
            v = value(env)
            if conv is not None:
                v = conv(v)
            return format_value(v, spec(env) if spec is not None else "")
        return ev

    def e_Starred(self, node, scope):
        raise CompileError(SyntaxError("can't use starred expression here"), node)


def name_error(name, G, fallback, modules, unavailable):
    exc = NameError(f"name '{name}' is not defined")
    if name in _HOST_BUILTINS:      # open, eval, exit, ...: offered by Python, not by gradrepl
        count_refusal(exc)
    home = _module_home(name, modules, unavailable)
    if home is not None:
        exc.gradrepl_hint = msg("hint.lives_in", "en", home=home, name=name)
        return exc
    best = suggest(name, [*G, *fallback])
    if best:
        exc.gradrepl_hint = msg("hint.did_you_mean", "en", name=f"'{best}'")
    return exc


def _module_home(name, modules, unavailable):
    """The facade module that offers `name` (Variable -> torch.autograd), or None."""
    stack = list(modules.values())
    while stack:
        mod = stack.pop(0)
        value = mod.entries.get(name)
        if value is not None and type(value) not in unavailable and callable(value):
            return mod.name
        stack.extend(v for v in mod.entries.values() if type(v) is module)
    return None


def user_exception_class(obj):
    """class MyError(ValueError): a learner's exception class (raised and caught as is)."""
    return is_user_class(obj) and issubclass(obj, Exception)


def user_view(exc):
    """What a user `except ... as e` binds: an allowed class whose only readable attribute is
    `args` (user values, or the message); another class becomes its nearest allowed base."""
    exc = without_internals(exc)
    kind = type(exc)
    if kind in EXCEPTION_SET or user_exception_class(kind):
        exc.__dict__.pop(LOC, None)
        return exc
    check_text(exc)
    for base in kind.__mro__:
        if base in EXCEPTION_SET:
            return base(str(exc))
    return Exception(str(exc))
