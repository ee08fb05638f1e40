"""gradrepl: an interactive autograd REPL and tutor over a NumPy-backed engine."""

__version__ = "0.1.0"
