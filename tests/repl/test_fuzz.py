"""Whatever is typed, the editing helpers answer without failing (they run on every key)."""
from hypothesis import given, settings, strategies as st
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.validation import ValidationError

from gradrepl.engine import api
from gradrepl.lang import Session, run_source
from gradrepl.repl.completer import Names, ReplCompleter
from gradrepl.repl.multiline import needs_more, next_indent
from gradrepl.repl.validator import SyntaxValidator

PIECES = ["x", "y", ".", "(", ")", "[", "]", ":", " ", "\n", "    ", "'", '"', "#", "\\", ",", "=",
          "torch", "grad", "grad_fn", "requires_grad", "backward", "sum", "F", "def ", "if ",
          "while ", "1", "1e", ":load ", ":lesson ", ":graph ", "__class__", "lambda", "*", "**"]
typed = st.lists(st.sampled_from(PIECES), max_size=25).map("".join) | st.text(max_size=60)

_session = Session()
_warnings = []
run_source("x = torch.ones(2, requires_grad=True)\ny = x * 2\nimport torch.nn.functional as F\n",
           _session)
COMPLETER = ReplCompleter(Names(_session.namespace, _session.fallback, api,
                                meta_commands=[":help", ":load"], lesson_names=["tiny"]))


@settings(max_examples=300, deadline=None)
@given(typed)
def test_editing_helpers_never_fail(text):
    api.set_warning_sink(lambda category, message: _warnings.append(message))
    needs_more(text)
    next_indent(text.rsplit("\n", 1)[-1])
    try:
        SyntaxValidator().validate(Document(text))
    except ValidationError as e:
        assert 0 <= e.cursor_position <= len(text)
    completions = list(COMPLETER.get_completions(Document(text, len(text)),
                                                 CompleteEvent(completion_requested=True)))
    for completion in completions:
        assert -completion.start_position <= len(text)
        assert not completion.text.startswith("__")
    assert _warnings == []          # completion never read y.grad (a non-leaf) or ran anything
