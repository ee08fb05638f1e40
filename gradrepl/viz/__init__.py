"""gradrepl.viz: see the graph, walk the chain rule, check the gradient (issue 7).

Modules: graph (model + text/DOT/Mermaid/svg/png), explain (the chain-rule trace),
symbolic (its short symbolic summary), gradcheck (finite differences, Jacobian), cli.

For the REPL's meta commands. Each takes the learner's `gradrepl.lang.Session` and
variable names (and `width`, the console's columns, accepted by all and unused where
rich adapts by itself; `lang`, "en" or "zh", the language of gradrepl's own words in
the result), changes nothing in the session (no .grad, no graph freed), prints nothing,
and raises `VizError` whose message is meant for the learner, in English: show it with
gradrepl.messages.localize(str(e), lang). The results are rich renderables:

    repl_graph(session, name, width=None, fmt="text", collapse=True, lang="en")  -> rich Tree | str
        `:graph NAME`. fmt "text" gives a rich Tree; "dot" and "mermaid" the source text.
    save_graph(session, name, path, fmt=None, collapse=True)          -> str (the path written)
        `:graph NAME FILE`: format from fmt or the file's suffix (.svg .png .dot .gv
        .mmd .txt); svg/png need Graphviz's `dot` (VizError names the package otherwise).
    repl_explain(session, name, vector=None, width=None, lang="en")   -> rich renderable
        `:explain NAME [V]`: every node in the engine's order with its rule, incoming
        gradient and what it sends on; the leaf results; a symbolic summary when the
        session's statements allow one. V: a variable holding the gradient for a
        non-scalar NAME (default ones, said in the output).
    repl_gradcheck(session, name, vector=None, width=None, rng_state=None, lang="en") -> rich renderable
        `:gradcheck NAME [V]`: reruns session.succeeded with float64 leaves; the verdict
        is in the renderable (gradcheck_result() gives the data). Pass rng_state =
        gradrepl.engine.functions.get_rng_state() taken when the session started (or
        was reset) so random draws rerun identically; without it, code that draws
        random numbers without torch.manual_seed gets a clear "does not reproduce". An input
        on a corner (relu at 0) is named: the slopes on both sides and which one autograd took.
    repl_jacobian(session, y_name, x_name, width=None, lang="en")      -> rich renderable
        `:jacobian Y X`: one backward per element of Y, as 001 builds it by hand.
"""
import difflib
from pathlib import Path

from gradrepl.messages import msg
from gradrepl.viz.graph import VizError

__all__ = ["VizError", "repl_graph", "save_graph", "repl_explain", "repl_gradcheck", "gradcheck_result",
           "repl_jacobian"]

_SUFFIX_FORMATS = {".svg": "svg", ".png": "png", ".dot": "dot", ".gv": "dot", ".mmd": "mermaid",
                   ".mermaid": "mermaid", ".txt": "text"}


def lookup(namespace, name):
    """namespace[name] as a tensor, or a VizError with did-you-mean suggestions."""
    from gradrepl.engine.tensor import Tensor

    if not isinstance(name, str) or name not in namespace or name.startswith("_") and name != "_":
        candidates = [k for k, v in namespace.items() if isinstance(k, str) and type(v) is Tensor]
        close = difflib.get_close_matches(str(name), candidates, n=3)
        if close:
            raise VizError(msg("vizerr.undefined_close", "en", name=name, close=" or ".join(repr(c) for c in close)))
        raise VizError(msg("vizerr.undefined", "en", name=name))
    value = namespace[name]
    if type(value) is not Tensor:
        raise VizError(msg("vizerr.not_tensor", "en", name=name))
    return value


def _graph(session, name, collapse):
    from gradrepl.viz.graph import Names, build_graph
    tensor = lookup(session.namespace, name)
    return build_graph(tensor, Names(session.namespace), root_name=name, collapse=collapse)


def repl_graph(session, name, width=None, fmt="text", collapse=True, lang="en"):
    from gradrepl.viz import graph as G
    g = _graph(session, name, collapse)
    if fmt == "text":
        return G.to_tree(g, lang)
    if fmt == "dot":
        return G.to_dot(g)
    if fmt == "mermaid":
        return G.to_mermaid(g)
    raise VizError(msg("vizerr.format", "en", fmt=fmt))


def save_graph(session, name, path, fmt=None, collapse=True, width=100):
    from gradrepl.viz import graph as G
    fmt = fmt or _SUFFIX_FORMATS.get(Path(path).suffix.lower())
    if fmt not in G.FORMATS:
        raise VizError(msg("vizerr.suffix", "en", path=path))
    g = _graph(session, name, collapse)
    data = render(g, fmt, width)
    try:
        Path(path).write_bytes(data)
    except OSError as e:
        raise VizError(msg("vizerr.write", "en", path=path, reason=str(e.strerror or e))) from None
    return str(path)


def render(g, fmt, width=80):
    """The graph in `fmt` as bytes (text formats UTF-8)."""
    from gradrepl.viz import graph as G
    if fmt in ("svg", "png"):
        return G.render_image(G.to_dot(g), fmt)
    text = {"text": lambda: G.to_text(g, width), "dot": lambda: G.to_dot(g), "mermaid": lambda: G.to_mermaid(g)}
    return text[fmt]().encode()


def repl_explain(session, name, vector=None, width=None, lang="en"):
    from gradrepl.viz.explain import explain_tensor, to_renderable
    from gradrepl.viz.graph import Names
    tensor = lookup(session.namespace, name)
    gradient = None if vector is None else lookup(session.namespace, vector)
    ex = explain_tensor(tensor, Names(session.namespace), root_name=name, gradient=gradient,
                        source="\n".join(session.succeeded))
    return to_renderable(ex, lang)


def gradcheck_result(session, name, vector=None, rng_state=None):
    """The data behind :gradcheck (GradcheckResult: .ok, .leaves with errors)."""
    from gradrepl.viz.gradcheck import gradcheck_source
    lookup(session.namespace, name)
    v = None if vector is None else lookup(session.namespace, vector)
    return gradcheck_source("\n".join(session.succeeded), session.namespace, name, vector=v,
                            limits=session.limits, rng_state=rng_state, bare_names=True)


def repl_gradcheck(session, name, vector=None, width=None, rng_state=None, lang="en"):
    from gradrepl.viz.gradcheck import gradcheck_renderable
    return gradcheck_renderable(gradcheck_result(session, name, vector, rng_state), lang)


def repl_jacobian(session, y_name, x_name, width=None, lang="en"):
    from gradrepl.viz.gradcheck import jacobian_renderable, jacobian_rows
    from gradrepl.viz.graph import Names
    y = lookup(session.namespace, y_name)
    x = lookup(session.namespace, x_name)
    rows = jacobian_rows(y, x, y_name, x_name, Names(session.namespace))
    return jacobian_renderable(rows, y_name, x_name, lang)
