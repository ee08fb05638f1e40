import pytest
from prompt_toolkit.document import Document
from prompt_toolkit.validation import ValidationError

from gradrepl.repl.multiline import is_meta, needs_more, next_indent
from gradrepl.repl.validator import SyntaxValidator


@pytest.mark.parametrize("text", [
    "with torch.no_grad():",
    "while y.data.norm() < 1000:\n    y = y * 2",          # a block ends with a blank line
    "for i in range(3): print(i)",
    "def f(x):\n    return x",
    "x = torch.tensor([1.,",
    "y = x + \\",
    's = """two\nlines',
    "if a:\n    pass\nelse:",
    "def f(x):\n    return x +",                          # inside a block: a new line, as in ptpython
    "for i in range(3):\n    y = 2 +* 3",
    "@torch.no_grad()\ndef f(x):\n    return x *",
])
def test_unfinished_input_continues(text):
    assert needs_more(text)


@pytest.mark.parametrize("text", [
    "",
    "x = torch.ones(2, 2, requires_grad=True)",
    "out.backward()",
    "while True:\n    pass\n",                              # the blank line submits
    "while True:\n    pass\n    ",
    "def f():\n    return 1\n\nprint(f())",                 # a pasted block ending in a statement
    "x = )",                                                # runs into the validator, not a new line
    "x = lambda:",
    "def f(x):\n    return x +\n",                         # the blank line submits: the validator says why
    ":vars",
    "# just a comment",
])
def test_complete_input_runs(text):
    assert not needs_more(text)


@pytest.mark.parametrize("line, indent", [
    ("with torch.no_grad():", "    "),
    ("    for i in range(3):   # loop", "        "),
    ("    y = y * 2", "    "),
    ("        return y", "    "),
    ("    pass", ""),
    ("    break", ""),
    ("x = 1", ""),
    ("d = {'a:': 1}", ""),
])
def test_auto_indent(line, indent):
    assert next_indent(line) == indent


def test_meta_commands_are_recognised():
    assert is_meta("  :help")
    assert not is_meta("x[:2]")


def test_validator_points_at_the_syntax_error():
    doc = Document("x = 1\ny = )", 0)
    with pytest.raises(ValidationError) as info:
        SyntaxValidator().validate(doc)
    assert info.value.message.startswith("SyntaxError: unmatched ')' (line 2, column 5)")
    assert info.value.cursor_position == doc.translate_row_col_to_index(1, 5)    # end of the line
    with pytest.raises(ValidationError) as info:
        SyntaxValidator().validate(Document("y = )"))
    assert info.value.cursor_position == 4                                      # one line: at the error
    SyntaxValidator().validate(Document(":graph out"))
    SyntaxValidator().validate(Document("y = x + 1\nz = (y *\n 2)"))
