"""`:graph`, `:explain`, `:gradcheck`, `:jacobian`: calls into gradrepl.viz (imported lazily).

    :graph NAME [text|dot|mermaid]   the graph in the terminal (a tree by default) or as source
    :graph NAME FILE                 saved (.svg .png .dot .mmd .txt), the path is shown
    :explain NAME [V]                the chain rule step by step (V: gradient for a non-scalar)
    :gradcheck NAME [V]              autograd against finite differences
    :jacobian Y X                    the full Jacobian dY/dX
"""
from rich.text import Text

from gradrepl.messages import localize, msg

USAGE = {":graph": "NAME [text|dot|mermaid|FILE]", ":explain": "NAME [V]",
         ":gradcheck": "NAME [V]", ":jacobian": "Y X"}
_ARGUMENTS = {":graph": (1, 2), ":explain": (1, 2), ":gradcheck": (1, 2), ":jacobian": (2, 2)}
_TEXT_FORMATS = ("text", "dot", "mermaid")


def show(repl, command, argument):
    printer = repl.printer
    words = argument.split()
    low, high = _ARGUMENTS[command]
    if not low <= len(words) <= high:
        printer.problem(msg("repl.usage", repl.lang, usage=f"{command} {USAGE[command]}"))
        return
    try:
        import gradrepl.viz as viz
    except ImportError:
        printer.problem(f"{command} is not available in this build (gradrepl.viz is missing)")
        return
    session = repl.session
    width = printer.console.width
    lang = repl.lang
    try:
        if command == ":graph":
            name, target = words[0], (words[1:] or ["text"])[0]
            if target in _TEXT_FORMATS:
                shown = viz.repl_graph(session, name, width=width, fmt=target, lang=lang)
            else:
                path = viz.save_graph(session, name, target)
                shown = msg("repl.graph_saved", lang, name=name, path=path)
        elif command == ":explain":
            shown = viz.repl_explain(session, words[0], *words[1:], width=width, lang=lang)
        elif command == ":gradcheck":
            shown = viz.repl_gradcheck(session, words[0], *words[1:], width=width,
                                       rng_state=repl.rng_state, lang=lang)
        else:
            shown = viz.repl_jacobian(session, words[0], words[1], width=width, lang=lang)
    except viz.VizError as e:
        printer.problem(f"{command}{'：' if lang == 'zh' else ': '}{localize(str(e), lang)}")
        return
    printer.print(Text(shown) if isinstance(shown, str) else shown)
