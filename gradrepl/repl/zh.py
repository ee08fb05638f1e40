"""The Chinese of the REPL's command summaries and help topics (`:lang zh`, `--lang zh`).

Keyed like gradrepl.repl.meta's English tables (COMMANDS, HELP), which stay next to the
code; tests/tutor/test_zh_screens.py keeps the two in step. Every other screen's text is
in the one catalogue, gradrepl.messages (repl.* keys).
Chinese text uses full-width punctuation; commands, names and code stay as they are.
"""

COMMANDS = {
    ":help": "某个主题（autograd、keys、commands）或某个命令的帮助",
    ":vars": "会话中的变量：shape、dtype、requires_grad、is_leaf、grad_fn、grad",
    ":grad": "每个有 .grad 的张量的 .grad（或 NAME 的）",
    ":graph": "画出产生 NAME 的 autograd 计算图（FILE：.svg .png .dot .mmd .txt）",
    ":explain": "从 NAME 出发，一步一步地反向走一遍链式法则（V：非标量 NAME 的梯度）",
    ":gradcheck": "把 NAME 的 autograd 梯度与有限差分对照",
    ":jacobian": "完整的雅可比矩阵 dY/dX，Y 的每个元素做一次反向传播",
    ":reset": "清除所有变量（在课程中：询问是否重新开始本课）",
    ":load": "把一个文件运行到会话中",
    ":save": "把成功运行的语句写成可用 Python 和 PyTorch 运行的脚本",
    ":history": "最近的 N 条输入（默认 20）",
    ":lesson": "列出课程，或开始其中一课",
    ":lang": "课程、帮助、表格、提示和工具所用的语言",
    ":tutor": "赋值和 backward 之后的导师注释",
    ":quit": "离开课程，或退出 gradrepl",
    ":hint": "本练习的下一条提示",
    ":solution": "参考答案",
    ":check": "检查目前输入的答案（在空行上按回车也一样）",
    ":skip": "运行参考答案并继续",
    ":back": "上一步",
    ":restart": "在新的会话中从头开始本课",
}

HELP = {
    "autograd": """\
五行讲清 autograd
  x = torch.ones(2, 2, requires_grad=True)   叶子：autograd 跟踪由它算出的一切
  y = x + 2; out = (3 * y * y).mean()         每个结果都记住自己的 grad_fn（AddBackward0 等）
  out.backward()                              用链式法则沿计算图往回走
  x.grad                                      d(out)/dx 累加在这里（每个元素都是 4.5）
只有叶子才会得到 .grad（要保留非叶子的梯度，在 backward 之前调用 y.retain_grad()）；
多次 backward 的梯度会累加（用 x.grad.zero_() 清零）；非标量结果需要给出梯度：
y.backward(torch.ones_like(y)) 计算向量-雅可比积。`with torch.no_grad():` 和 x.detach()
停止跟踪。backward 会释放计算图：要走第二遍，传入 retain_graph=True。试试 :graph out 和 :explain out。""",
    "keys": """\
按键
  Enter          运行，或在未完成的语句后换到 `...` 行继续（自动缩进）
  空行           结束一个代码块（def、for、while、if、with、try、class）
  Esc Enter      立即运行，即使在代码块中
  Tab            补全名称、属性、关键字参数、命令或路径；在行首时缩进
  Up / Down      历史记录（跨会话保存）；Ctrl-R 搜索历史
  Ctrl-C         清除当前行，或停止正在运行的语句（变量会保留）
  Ctrl-D         退出（在空行上）；也可以输入 `exit` 或 `quit`""",
}
