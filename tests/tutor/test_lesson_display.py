"""Rendering details: Chinese soft line breaks, no padding when piped, code beside its output."""
from gradrepl.tutor.display import make_console, show_code, show_markdown, show_output


def render(fn, *args):
    console = make_console()
    with console.capture() as cap:
        fn(console, *args)
    return cap.get()


def test_a_line_break_inside_chinese_prose_is_not_a_space():
    assert render(show_markdown, "梯度会累加，\n  下一次反向传播", "zh") == "梯度会累加，下一次反向传播\n"
    assert render(show_markdown, "调用\n`backward`", "zh") == "调用 backward\n"
    assert render(show_markdown, "two\nlines", "en") == "two lines\n"


def test_piped_markdown_is_not_padded_and_output_is_verbatim():
    assert all(line == line.rstrip() for line in render(show_markdown, "- a\n- b\n\nText.", "en").split("\n"))
    wide = "tensor([" + ", ".join(["1.0000"] * 20) + "])"
    assert render(show_output, wide + "\n") == wide + "\n"  # never wrapped, never highlighted


def test_code_sits_behind_a_gutter():
    assert render(show_code, "with torch.no_grad():\n    y = x * 2\n") == \
        "│ with torch.no_grad():\n│     y = x * 2\n"
