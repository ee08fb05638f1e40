"""Highlighting as you type: Python through Pygments; a meta command in one style."""
from prompt_toolkit.lexers import Lexer, PygmentsLexer
from pygments.lexers.python import PythonLexer

from gradrepl.repl.multiline import is_meta


class ReplLexer(Lexer):
    def __init__(self):
        self.python = PygmentsLexer(PythonLexer)

    def lex_document(self, document):
        if is_meta(document.text):
            lines = document.lines
            return lambda number: [("class:meta", lines[number])] if number < len(lines) else []
        return self.python.lex_document(document)
