"""Keys of the prompt: Enter runs or continues with auto-indent, Tab indents or completes.

Ctrl-C (clear the line) and Ctrl-D (exit on an empty line), Up/Down history and
Ctrl-R search are prompt_toolkit's defaults; bracketed paste inserts a block as it
is, since only Enter adds indentation.
"""
from prompt_toolkit.application import get_app
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition, completion_is_selected, has_selection, is_searching
from prompt_toolkit.key_binding import KeyBindings

from gradrepl.repl.multiline import INDENT, needs_more, next_indent


@Condition
def _only_blanks_before_cursor():
    before = get_app().current_buffer.document.current_line_before_cursor
    return not before.strip()


@Condition
def _indent_before_cursor():
    before = get_app().current_buffer.document.current_line_before_cursor
    return bool(before) and not before.strip()


def newline_with_indent(buffer):
    line = buffer.document.current_line_before_cursor
    buffer.insert_text("\n" + next_indent(line))


def submit(buffer):
    """Run the input (trailing blank lines dropped) if the validator lets it through."""
    text = buffer.text.rstrip()
    buffer.document = Document(text, len(text))
    buffer.validate_and_handle()


def repl_key_bindings() -> KeyBindings:
    kb = KeyBindings()

    @kb.add("enter", filter=completion_is_selected & ~is_searching)
    def _keep_completion(event):
        event.current_buffer.complete_state = None

    @kb.add("enter", filter=~completion_is_selected & ~is_searching & ~has_selection)
    def _enter(event):
        buffer = event.current_buffer
        document = buffer.document
        editing_inside = document.line_count > 1 and not document.is_cursor_at_the_end
        if editing_inside or needs_more(buffer.text):
            newline_with_indent(buffer)
        else:
            submit(buffer)

    @kb.add("escape", "enter", filter=~is_searching)
    def _run_now(event):
        submit(event.current_buffer)

    @kb.add("tab", filter=_only_blanks_before_cursor & ~has_selection & ~completion_is_selected)
    def _indent(event):
        event.current_buffer.insert_text(INDENT)

    @kb.add("s-tab", filter=_indent_before_cursor)
    @kb.add("backspace", filter=_indent_before_cursor & ~has_selection)
    def _dedent(event):
        before = event.current_buffer.document.current_line_before_cursor
        event.current_buffer.delete_before_cursor(len(before) % len(INDENT) or len(INDENT))

    return kb
