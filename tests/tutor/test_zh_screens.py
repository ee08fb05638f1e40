"""Chinese is a first-class language: every screen of a lesson and of the REPL's help."""
import re

from gradrepl.messages import MESSAGES
from gradrepl.repl import meta
from gradrepl.tutor.display import join_cjk_lines, lesson_table, make_console
from gradrepl.tutor.lesson import load_all
from gradrepl.tutor.progress import ProgressStore


def test_every_repl_command_and_help_topic_is_in_the_catalogue():
    commands = {*meta.COMMANDS, *meta.LESSON_COMMANDS}
    assert {key for key in MESSAGES if key.startswith("cmd:")} == {"cmd" + name for name in commands}
    assert {key for key in MESSAGES if key.startswith("help.")} == {"help." + topic for topic in meta.HELP}


def test_soft_line_breaks_join_in_chinese():
    assert join_cjk_lines("第一行\n第二行") == "第一行第二行"
    # after CJK punctuation nothing is inserted, whatever follows (issue 16: a space appeared)
    assert join_cjk_lines("所以第二次调用，\n`out.backward()` 会失败。") == "所以第二次调用，`out.backward()` 会失败。"
    assert join_cjk_lines("它返回 `a`；\nPyTorch 也一样") == "它返回 `a`；PyTorch 也一样"
    # before CJK punctuation nothing either, whatever precedes it
    assert join_cjk_lines("就地写入 `y`\n（计算图记录为 CopySlices）") == "就地写入 `y`（计算图记录为 CopySlices）"
    # an English word after a CJK character keeps its space (a Markdown soft break)
    assert join_cjk_lines("调用\nbackward") == "调用\nbackward"
    # block structure is kept: list items, indented formulas
    assert join_cjk_lines("要点：\n- 第一\n- 第二") == "要点：\n- 第一\n- 第二"
    formula = "    ∂o/∂xᵢ = ¼ · 6yᵢ\n    在 xᵢ = 1 处"
    assert join_cjk_lines("推导：\n\n" + formula) == "推导：\n\n" + formula


def test_lesson_list_folds_chinese_titles_instead_of_cutting_them(tmp_path):
    lessons = load_all()
    console = make_console()
    console.width = 56
    with console.capture() as cap:
        lesson_table(lessons, ProgressStore(tmp_path / "p.json"), "zh", console)
    out = cap.get()
    assert "…" not in out and "标题" in out and "进度" in out
    cells = "".join(line.split("│")[3] for line in out.splitlines() if line.count("│") == 5).replace(" ", "")
    for lesson in lessons:
        assert lesson.title.zh.replace(" ", "") in cells


def test_repl_help_banner_and_grad_table_in_chinese(tmp_path, monkeypatch):
    import io

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from gradrepl.repl.history import AtomicFileHistory
    from gradrepl.repl.render import make_console as repl_console
    from gradrepl.repl.repl import Repl

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(":vars\r:grad\r:help\rx = torch.ones(2, requires_grad=True)\rx.sum().backward()\r"
                       ":vars\r:grad\r:grad x\ry = x * 3\r:grad y\r:explain y\r:explain q\r:graph\ry.backward()\r"
                       "x.add_(1)\r:tutor\r:lang\rwith torch.no_grad():\r    x.add_(1)\r\r:vras\r:hint\rq = ones(1)\rbig = torch.zeros(60000000)\r")
        pipe.close()
        repl = Repl(plain=True, lang="zh", console=repl_console(True, file=out, width=100),
                    history=AtomicFileHistory(tmp_path / "history"), input=pipe, output=DummyOutput())
        repl.run()
    text = out.getvalue()
    assert "看得见的 autograd" in text and "输入 PyTorch 代码" in text
    assert "课程中：本练习的下一条提示" in text and "help on a topic" not in text
    assert ".grad 有变化" in text and ".grad changed" not in text
    assert "还没有变量" in text and "还没有张量有 .grad" in text and "张量" in text
    assert re.search(r"名称 +┃ 形状 +┃ dtype", text) and "有 (2,)" in text          # :vars
    assert "y.grad 是 None：它不是叶子节点：在 backward() 之前对它调用 .retain_grad()" in text   # :grad y
    assert "y 的链式法则：按引擎运行的顺序逐个节点展示。" in text and "结果（引擎累加到" in text   # :explain
    assert ":explain：名称 'q' 未定义" in text and "用法：:graph NAME [text|dot|mermaid|FILE]" in text
    assert "RuntimeError: grad can be implicitly created only for scalar outputs" in text   # PyTorch's line
    assert "提示：传入一个形状相同的梯度，例如 y.backward(torch.ones_like(y))" in text
    assert "提示：在 `with torch.no_grad():` 中更新叶子节点" in text
    assert "导师注释：开" in text and "语言：zh" in text
    assert not re.search(r"\bhint: |Chain rule|usage: |no gradient", text)
    assert "x：requires_grad=True  is_leaf=True  grad_fn=None" in text          # tutor annotations
    assert "x（被原地修改）：" in text
    assert re.search(r"\n\.grad *\n *\n +名称 +形状 +grad", text)                  # :grad's table
    assert "未知命令 :vras；你是不是想输入 :vars？" in text and ":hint：没有正在进行的课程" in text
    assert "小贴士：不加 torch. 的 ones 是 gradrepl 的简写" in text
    assert "BudgetExceeded: 形状为 (60000000,) 的张量将有 60000000 个元素" in text    # our words
    assert repl.toolbar() == " 梯度模式：开启 | 张量：3 | :help  Ctrl-D 退出"
    repl.set_lang("en")
    assert repl.toolbar() == " grad mode: enabled | tensors: 3 | :help  Ctrl-D exits"
    repl.printer.console.width = 40          # too narrow for everything: the help hint is left out
    assert repl.toolbar() == " grad mode: enabled | tensors: 3"


def test_chinese_prose_wraps_between_characters_not_only_at_spaces():
    from gradrepl.tutor.display import show_markdown
    from rich.cells import cell_len

    # 40 cells, then a run of Chinese (32 cells) that does not fit the rest of a 60-cell line
    text = "创建一个张量，并设置 `requires_grad=True` 来跟踪与它相关的全部计算和结果。再来一句话。"
    console = make_console()
    console.width = 60
    with console.capture() as cap:
        show_markdown(console, text, "zh")
    lines = cap.get().rstrip("\n").split("\n")
    assert "".join(lines).replace(" ", "") == text.replace("`", "").replace(" ", "")
    assert all(cell_len(line) >= 56 for line in lines[:-1]), lines     # full lines, not ragged
    assert not any(line.startswith(("，", "。", "、")) for line in lines)
    with console.capture() as cap:   # nor after a Latin word: 'b，' stays together
        show_markdown(console, "对 z = w·x + b，叶子是 x、w 和 b，y = w·x 与 z 不是叶子。博文用文字画图。", "zh")
    assert not any(line.startswith(("，", "。", "、")) for line in cap.get().split("\n"))
    # English keeps rich's own wrapping
    with console.capture() as cap:
        show_markdown(console, "word " * 20, "en")
    assert all(not line.startswith(" ") for line in cap.get().split("\n"))


def test_cjk_words_are_richs_words_on_text_without_chinese():
    """cjk_wrapping only changes how Chinese wraps: elsewhere its words are rich's own."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from rich import _wrap

    from gradrepl.tutor.display import _cjk_words

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet=st.sampled_from(list("ab ,.;:()[]-_=\t\n∂ᵢé")), max_size=40))
    def same(text):
        assert list(_cjk_words(text)) == list(_wrap.words(text))
    same()


def test_every_chinese_screen_of_a_lesson_wraps_between_characters():
    """Not only the prose: a check's failure, the lesson summary, a tool's explanation; and an
    opening bracket never ends a line, a closing one never starts one."""
    from rich.cells import cell_len

    from gradrepl.tutor.check import CheckResult, Failure
    from gradrepl.tutor.display import show_check

    console = make_console()
    console.width = 50
    failure = Failure("x", "x.grad 是 [2., 2.]，这不是题目要求的结果（不要直接粘贴数值，请推导）；再试一次，或者输入 :hint 查看提示")
    with console.capture() as cap:
        show_check(console, CheckResult((failure,)), "zh")
    lines = cap.get().rstrip("\n").split("\n")[1:]
    assert len(lines) >= 2 and all(cell_len(line) >= 46 for line in lines[:-1]), lines
    assert not any(line.rstrip().endswith("（") or line.lstrip(" -").startswith(("）", "，", "。", "；"))
                   for line in lines), lines


def test_emphasis_in_every_lesson_renders_in_both_languages():
    """CommonMark does not close `**…？**` before a Chinese character: such a bold shows its
    asterisks. No prose of a shipped lesson may show `**` next to Chinese or at a line end."""
    from gradrepl.tutor.display import show_markdown
    from gradrepl.tutor.lesson import Exercise, Prose

    console = make_console()
    console.width = 80
    shown = []
    for lesson in load_all():
        for step in lesson.steps:
            text = step.text if isinstance(step, Prose) else step.task if isinstance(step, Exercise) else None
            for lang in ("en", "zh") if text is not None else ():
                with console.capture() as cap:
                    show_markdown(console, text.get(lang), lang)
                shown += [(lesson.id, line) for line in cap.get().splitlines()]
    assert len(shown) > 500
    bad = [(lesson, line) for lesson, line in shown if re.search(r"(^|[^\x00-\x7f])\*\*\S|\S\*\*([^\x00-\x7f]|$)", line)]
    assert not bad
    # and no space after a full stop or question mark of Chinese ("**再用一次链式法则。** L")
    assert not [(lesson, line) for lesson, line in shown if re.search(r"[。？！：；，] (?! )", line)]   # (aligned diagrams aside)
    with console.capture() as cap:     # the check can fail
        show_markdown(console, "**为什么是 4.5？**给每一步起名。", "zh")
    assert re.search(r"(^|[^\x00-\x7f])\*\*\S|\S\*\*([^\x00-\x7f]|$)", cap.get())
