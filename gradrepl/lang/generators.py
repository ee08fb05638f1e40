"""Lazy generators: `def` bodies with `yield`, and generator expressions.

A generator function's body is compiled a second way: each statement that contains a
`yield` becomes a host generator function `g(env)` that yields the learner's values and
returns the statement's control signal (None, BREAK, CONTINUE, RETURN); statements
without a yield stay ordinary closures.  The learner holds a `generator` wrapper, whose
every resumption is counted against the step and depth budgets.  `yield` runs as a
statement (`yield value`, `x = yield value`, `yield from iterable`); `send`/`throw` are
not offered, so `x = yield value` binds None.
"""
import ast

from gradrepl.lang.runtime import BREAK, CONTINUE, enter_context

YIELDS = (ast.Yield, ast.YieldFrom)
_OPAQUE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def has_yield(node):
    """Whether a statement (or list of them) yields, not counting nested functions/classes."""
    stack = list(node) if isinstance(node, list) else [node]
    while stack:
        n = stack.pop()
        if isinstance(n, YIELDS):
            return True
        if isinstance(n, _OPAQUE):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return False


class generator:
    """A running generator as user code sees it: iterate it, next() it, print it."""

    __slots__ = ("name", "gen", "budget")

    def __init__(self, name, gen, budget):
        self.name = name
        self.gen = gen
        self.budget = budget

    def __iter__(self):
        return self

    def __next__(self):
        b = self.budget
        if not b.active:            # resumed by gradrepl itself between statements
            b.start()
            try:
                return self.resume(b)
            finally:
                b.active = False
        return self.resume(b)

    def resume(self, b):
        b.countdown -= 1
        if b.countdown <= 0:
            b.refill()
        depth = b.depth + 1
        if depth > b.max_depth:
            raise b.too_deep()
        b.depth = depth
        try:
            return next(self.gen)
        finally:
            b.depth = depth - 1

    def __repr__(self):
        return f"<generator object {self.name} at {id(self):#x}>"


class GeneratorCompiler:
    """Mixed into gradrepl.lang.compiler.Compiler: the generator forms of statements."""

    def generator_body(self, body, scope, name):
        """code(local) -> generator, for a def whose body yields."""
        run = self.gblock(body, scope, 0)
        budget = self.budget

        def start(local):
            return generator(name, run(local), budget)
        return start

    def gblock(self, nodes, scope, loops):
        from gradrepl.lang.compiler import mark
        parts = [(has_yield(n), self.gstmt(n, scope, loops) if has_yield(n)
                  else self.stmt(n, scope, loops), n) for n in nodes]

        def run(env):
            for is_gen, s, node in parts:
                try:
                    r = (yield from s(env)) if is_gen else s(env)
                except BaseException as exc:
                    mark(exc, node)
                    raise
                if r is not None:
                    return r
            return None
        return run

    def gstmt(self, node, scope, loops):
        handler = getattr(self, "g_" + type(node).__name__, None)
        if handler is None:
            from gradrepl.lang.compiler import not_supported
            raise not_supported("'yield' inside this statement (gradrepl runs `yield value`, "
                                "`x = yield value` and `yield from iterable` as statements)",
                                node)
        return handler(node, scope, loops)

    def yield_value(self, node, scope):
        """ev(env) -> a generator yielding what a Yield/YieldFrom node yields."""
        from gradrepl.lang.compiler import not_supported
        if not isinstance(node, YIELDS) or (node.value is not None and has_yield(node.value)):
            raise not_supported("'yield' inside an expression (gradrepl runs `yield value`, "
                                "`x = yield value` and `yield from iterable` as statements)",
                                node)
        ev = self.expr(node.value, scope) if node.value is not None else None
        budget = self.budget
        if isinstance(node, ast.Yield):
            def one(env):
                yield ev(env) if ev is not None else None
            return one

        def each(env):
            for item in ev(env):
                budget.countdown -= 1
                if budget.countdown <= 0:
                    budget.refill()
                yield item
        return each

    def g_Expr(self, node, scope, loops):
        produce = self.yield_value(node.value, scope)

        def run(env):
            yield from produce(env)
            return None
        return run

    def g_Assign(self, node, scope, loops):
        produce = self.yield_value(node.value, scope)
        stores = [self.target(t, scope) for t in node.targets]

        def run(env):
            yield from produce(env)
            for store in stores:
                store(env, None)        # no send(): a yield expression's value is None
            return None
        return run

    def g_If(self, node, scope, loops):
        test = self.expr(node.test, scope)
        body = self.gblock(node.body, scope, loops)
        orelse = self.gblock(node.orelse, scope, loops) if node.orelse else None

        def run(env):
            if test(env):
                return (yield from body(env))
            if orelse is not None:
                return (yield from orelse(env))
            return None
        return run

    def g_For(self, node, scope, loops):
        it_ev = self.expr(node.iter, scope)
        store = self.target(node.target, scope)
        body = self.gblock(node.body, scope, loops + 1)
        orelse = self.gblock(node.orelse, scope, loops) if node.orelse else None
        b = self.budget

        def run(env):
            for item in it_ev(env):
                b.countdown -= 1
                if b.countdown <= 0:
                    b.refill()
                store(env, item)
                r = yield from body(env)
                if r is not None:
                    if r is BREAK:
                        return None
                    if r is not CONTINUE:
                        return r
            if orelse is not None:
                return (yield from orelse(env))
            return None
        return run

    def g_While(self, node, scope, loops):
        test = self.expr(node.test, scope)
        body = self.gblock(node.body, scope, loops + 1)
        orelse = self.gblock(node.orelse, scope, loops) if node.orelse else None
        b = self.budget

        def run(env):
            while test(env):
                b.countdown -= 1
                if b.countdown <= 0:
                    b.refill()
                r = yield from body(env)
                if r is not None:
                    if r is BREAK:
                        return None
                    if r is not CONTINUE:
                        return r
            if orelse is not None:
                return (yield from orelse(env))
            return None
        return run

    def g_With(self, node, scope, loops):
        body = self.gblock(node.body, scope, loops)
        for item in reversed(node.items):
            body = self.gwith_item(item, body, scope)
        return body

    def gwith_item(self, item, body, scope):
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
                r = yield from body(env)
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

    def g_Try(self, node, scope, loops):
        from gradrepl.lang.compiler import UNCATCHABLE, private_name, user_view
        from gradrepl.lang.policy import is_private
        ctx = self.ctx
        body = self.gblock(node.body, scope, loops)
        handlers = []
        for h in node.handlers:
            type_ev = self.expr(h.type, scope) if h.type is not None else None
            if h.name is not None and is_private(h.name):
                raise private_name(h.name, h)
            handlers.append((type_ev, h.name, self.gblock(h.body, scope, loops)))
        orelse = self.gblock(node.orelse, scope, loops) if node.orelse else None
        final = self.gblock(node.finalbody, scope, loops) if node.finalbody else None
        find = self.handler_finder(handlers)

        def inner(env):
            try:
                r = yield from body(env)
            except UNCATCHABLE:
                raise
            except Exception as exc:
                found = find(env, exc)
                if found is None:
                    raise
                name, hbody = found
                caught = user_view(exc)
                if name is not None:
                    env[name] = caught
                ctx.handling.append(caught)
                try:
                    return (yield from hbody(env))
                finally:
                    ctx.handling.pop()
                    if name is not None:
                        env.pop(name, None)
            if orelse is not None:
                return (yield from orelse(env))
            return r

        if final is None:
            return inner

        def run(env):
            try:
                r = yield from inner(env)
            except UNCATCHABLE:
                raise
            except Exception:
                fr = yield from final(env)
                if fr is not None:
                    return fr
                raise
            fr = yield from final(env)
            return fr if fr is not None else r
        return run

    def e_GeneratorExp(self, node, scope):
        """(elt for x in it if cond): the first iterable is evaluated at once, the rest lazily."""
        from gradrepl.lang.compiler import PARENT, Scope, comp_targets, not_supported, \
            private_name
        from gradrepl.lang.policy import is_private
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
        elt = self.expr(node.elt, inner)
        b = self.budget
        last = len(gens) - 1

        def loop(level, c, iterable):
            _, store, ifs = gens[level]
            for item in iterable:
                b.countdown -= 1
                if b.countdown <= 0:
                    b.refill()
                store(c, item)
                if ifs and not all(f(c) for f in ifs):
                    continue
                if level == last:
                    yield elt(c)
                else:
                    yield from loop(level + 1, c, gens[level + 1][0](c))

        first = gens[0][0]

        def ev(env):
            iterable = iter(first(env))
            return generator("<genexpr>", loop(0, {PARENT: env}, iterable), b)
        return ev
