"""Flag a syntax error before anything runs, with its line and column (ptpython's validator)."""
import ast
import warnings

from prompt_toolkit.validation import ValidationError, Validator

from gradrepl.repl.multiline import is_meta


class SyntaxValidator(Validator):
    def validate(self, document):
        text = document.text
        if not text.strip() or is_meta(text):
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                ast.parse(text)
            except SyntaxError as e:
                line = max(1, e.lineno or 1)
                column = max(1, e.offset or 1)
                row = min(line - 1, document.line_count - 1)
                col = min(column - 1, len(document.lines[row]))
                if document.line_count > 1:
                    # the end of the failing line: Enter there opens a line instead of
                    # splitting one of the block's lines in two
                    col = len(document.lines[row])
                raise ValidationError(
                    cursor_position=document.translate_row_col_to_index(row, col),
                    message=f"{type(e).__name__}: {e.msg} (line {line}, column {column})") from None
            except (ValueError, RecursionError, MemoryError):
                return                     # the interpreter reports these with its own words
