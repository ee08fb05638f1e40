"""`:graph`, `:explain`, `:gradcheck`, `:jacobian`: thin calls into gradrepl.viz, imported lazily."""
import importlib

_FUNCTIONS = {":graph": "repl_graph", ":explain": "repl_explain", ":gradcheck": "repl_gradcheck",
              ":jacobian": "repl_jacobian"}


def show(repl, command, names):
    printer = repl.printer
    try:
        viz = importlib.import_module("gradrepl.viz")
    except ImportError:
        viz = None
    function = getattr(viz, _FUNCTIONS[command], None)
    if function is None:
        printer.problem(f"{command} is not available in this build yet (gradrepl.viz is missing)")
        return
    error_type = getattr(viz, "VizError", ())
    try:
        shown = function(repl.session, *names, width=printer.console.width)
    except error_type as e:
        printer.problem(f"{command}: {e}")
        return
    printer.print(shown)
