"""What gradrepl says, in English and Chinese: the one message catalogue.

MESSAGES maps a key to (English, Chinese); `msg(key, lang, **fields)` formats one. Chinese
uses full-width punctuation (：，。；（）), no space between Chinese characters, code and
names as they are; both texts have the same {fields} (tests/test_messages.py walks them).

Text made in a layer that does not know the learner's language (the hints gradrepl.lang
adds under an error, VizError messages, notes of gradcheck) is made in English with
`msg(key, "en", ...)`; whoever shows it calls `localize(text, lang)`, which finds the
template it was made from and fills the Chinese one with the same fields.

Keys: the lesson players' (no prefix), `label.*` (tutor display), `check.*` (exercise
checks), `cli.*` (`gradrepl lesson`'s errors), `repl.*` (the REPL's screens), `cmd:NAME`
and `help.TOPIC` (:help), `viz.*` (graph, explain, gradcheck, jacobian), and for
localize(): `viznote.*`, `vizerr.*`, `hint.*`. `default_lang()` reads the locale.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping

MESSAGES = {
    "enter": ("Enter: continue  (:back :restart :quit)", "回车：继续（:back :restart :quit）"),
    "exercise": ("Type your answer (one or more lines, each runs as you type it), then press Enter on "
                 "an empty line to check it. It starts from the lesson's variables as its steps made "
                 "them.  :hint :solution :skip :back :restart :quit",
                 "输入你的答案（可以多行，每行输入后立即运行），然后在空行上按回车检查。"
                 "答案从本课各步骤建立的变量开始。:hint :solution :skip :back :restart :quit"),
    "nothing_typed": ("Type your answer first; Enter on an empty line then checks it.",
                      "请先输入答案；之后在空行上按回车进行检查。"),
    "again": ("Your next try starts from the lesson's state again (the variables of this try are gone).",
              "下一次尝试重新从课程的状态开始（这次尝试的变量已清除）。"),
    "resume": ("Resume at step {step} of {total}? [Y/n] ", "从第 {step}/{total} 步继续？[Y/n] "),
    "finished_before": ("You finished this lesson before. Start over (clears its progress)? [y/N] ",
                        "你已经学完本课。要从头再来（清除进度）吗？[y/N] "),
    "review": ("Going through the lesson again; it stays finished in your progress.",
               "重新浏览本课；你的进度仍记为已完成。"),
    "reset_ask": (":reset would forget the variables this lesson's steps made, and later steps need them. "
                  "Restart the lesson from step 1? [y/N] ",
                  ":reset 会清除本课各步骤建立的变量，而后面的步骤需要它们。要从第 1 步重新开始本课吗？[y/N] "),
    "reset_rebuilt": ("The session was rebuilt as the lesson has it at this step.",
                      "会话已按本课在这一步的状态重建。"),
    "no_hint": ("No more hints; :solution shows the answer.", "没有更多提示了；:solution 显示答案。"),
    "skipped": ("Skipped; the reference solution was run so later steps work.",
                "已跳过；已运行参考答案，以便后续步骤正常进行。"),
    "already": ("(this step already ran)", "（此步骤已运行）"),
    "unknown": ("Unknown command {cmd}; commands: {all}", "未知命令 {cmd}；可用命令：{all}"),
    "not_exercise": ("{cmd}: this step is not an exercise", "{cmd}：这一步不是练习"),
    "first_step": ("(this is the first step)", "（这是第一步）"),
    "finished": ("Lesson finished. Well done!", "课程完成，做得好！"),
    "saved": ("Progress saved; `gradrepl lesson {id}` resumes here.", "进度已保存；`gradrepl lesson {id}` 可从这里继续。"),
    "saved_repl": ("Progress saved; :lesson {id} resumes here.", "进度已保存；:lesson {id} 可从这里继续。"),
    "predict": ("Predict before it runs: {question}", "运行之前先预测：{question}"),
    "predict_prompt": ("Your answer (1-{n}; Enter to just run it): ", "你的答案（1-{n}；直接回车则直接运行）："),
    "predict_bad": ("Answer with a number from 1 to {n}.", "请回答 1 到 {n} 之间的数字。"),
    "predict_right": ("Right.", "答对了。"),
    "predict_wrong": ("Not this one: the answer is {n}.", "不对：答案是 {n}。"),
    "predict_answer": ("The answer is {n}.", "答案是 {n}。"),
    "tool": ("The tutor runs {cmd} for you (at the gradrepl prompt you can type it yourself):",
             "导师替你运行 {cmd}（在 gradrepl 提示符下你也可以自己输入）："),
    "tool_try": ("Your turn: type {cmd} at the prompt (Enter shows it for you).",
                 "轮到你了：在提示符下输入 {cmd}（直接回车则由导师替你显示）。"),
    "hint": ("hint: {text}", "提示：{text}"),
    "warning": ("warning: {text}", "警告：{text}"),
    # tutor display labels
    "label.number": ("#", "#"),
    "label.id": ("id", "id"),
    "label.title": ("title", "标题"),
    "label.progress": ("progress", "进度"),
    "label.exercise": ("Exercise", "练习"),
    "label.hint": ("Hint", "提示"),
    "label.solution": ("Reference solution", "参考答案"),
    "label.passed": ("✓ check passed", "✓ 检查通过"),
    "label.failed": ("✗ check failed", "✗ 检查未通过"),
    "label.mismatch": ("output differs from the lesson:", "输出与课程不一致："),
    "label.lessons": ("Lessons", "课程"),
    "label.all_matched": ("All outputs matched and every check passed.", "所有输出一致，所有检查通过。"),
    "label.problems": ("Problems", "问题"),
    "label.predict": ("Predict", "预测"),
    "label.answer": ("Answer", "答案"),
    "label.done": ("done", "已完成"),
    "label.at_step": ("step {step}/{total}", "第 {step}/{total} 步"),
    # the REPL's commands (summaries) and :help topics
    "cmd:help": ("help on a topic (autograd, keys, commands) or a command",
                "某个主题（autograd、keys、commands）或某个命令的帮助"),
    "cmd:vars": ("the session's variables: shape, dtype, requires_grad, is_leaf, grad_fn, grad",
                "会话中的变量：shape、dtype、requires_grad、is_leaf、grad_fn、grad"),
    "cmd:grad": ("the .grad of every tensor that has one (or of NAME)",
                "每个有 .grad 的张量的 .grad（或 NAME 的）"),
    "cmd:graph": ("draw the autograd graph that produced NAME (FILE: .svg .png .dot .mmd .txt)",
                "画出产生 NAME 的 autograd 计算图（FILE：.svg .png .dot .mmd .txt）"),
    "cmd:explain": ("walk the chain rule backward from NAME, step by step (V: the gradient for a non-scalar NAME)",
                "从 NAME 出发，一步一步地反向走一遍链式法则（V：非标量 NAME 的梯度）"),
    "cmd:gradcheck": ("compare NAME's autograd gradients with finite differences",
                "把 NAME 的 autograd 梯度与有限差分对照"),
    "cmd:jacobian": ("the full Jacobian dY/dX, one backward per element of Y",
                "完整的雅可比矩阵 dY/dX，Y 的每个元素做一次反向传播"),
    "cmd:reset": ("forget every variable (in a lesson: asks whether to restart it)",
                "清除所有变量（在课程中：询问是否重新开始本课）"),
    "cmd:load": ("run a file into the session",
                "把一个文件运行到会话中"),
    "cmd:save": ("write the statements that succeeded as a script for Python with PyTorch",
                "把成功运行的语句写成可用 Python 和 PyTorch 运行的脚本"),
    "cmd:history": ("the last N inputs (default 20)",
                "最近的 N 条输入（默认 20）"),
    "cmd:lesson": ("list the lessons, or start one",
                "列出课程，或开始其中一课"),
    "cmd:lang": ("the language of lessons, help, tables, hints and tools",
                "课程、帮助、表格、提示和工具所用的语言"),
    "cmd:tutor": ("tutor annotations after assignments and backward",
                "赋值和 backward 之后的导师注释"),
    "cmd:quit": ("leave the lesson, or gradrepl",
                "离开课程，或退出 gradrepl"),
    "cmd:hint": ("the next hint for the exercise",
                "本练习的下一条提示"),
    "cmd:solution": ("the reference solution",
                "参考答案"),
    "cmd:check": ("check the answer typed so far (Enter on an empty line does too)",
                "检查目前输入的答案（在空行上按回车也一样）"),
    "cmd:skip": ("run the reference solution and go on",
                "运行参考答案并继续"),
    "cmd:back": ("the previous step",
                "上一步"),
    "cmd:restart": ("start the lesson again, in a fresh session",
                "在新的会话中从头开始本课"),
    "help.autograd": ("""\
Autograd in five lines
  x = torch.ones(2, 2, requires_grad=True)   a leaf: autograd tracks what is computed from it
  y = x + 2; out = (3 * y * y).mean()         each result remembers its grad_fn (AddBackward0, ...)
  out.backward()                              walks the graph back with the chain rule
  x.grad                                      d(out)/dx accumulates here (4.5 everywhere)
Only leaves get .grad (call y.retain_grad() before backward to keep a non-leaf's);
gradients add up across backward calls (zero them with x.grad.zero_()); a non-scalar
result needs a gradient: y.backward(torch.ones_like(y)) computes a vector-Jacobian
product. `with torch.no_grad():` and x.detach() stop tracking. backward frees the
graph: pass retain_graph=True to run it twice. Try :graph out and :explain out.""",
                 """\
五行讲清 autograd
  x = torch.ones(2, 2, requires_grad=True)   叶子：autograd 跟踪由它算出的一切
  y = x + 2; out = (3 * y * y).mean()         每个结果都记住自己的 grad_fn（AddBackward0 等）
  out.backward()                              用链式法则沿计算图往回走
  x.grad                                      d(out)/dx 累加在这里（每个元素都是 4.5）
只有叶子才会得到 .grad（要保留非叶子的梯度，在 backward 之前调用 y.retain_grad()）；
多次 backward 的梯度会累加（用 x.grad.zero_() 清零）；非标量结果需要给出梯度：
y.backward(torch.ones_like(y)) 计算向量-雅可比积。`with torch.no_grad():` 和 x.detach()
停止跟踪。backward 会释放计算图：要走第二遍，传入 retain_graph=True。试试 :graph out 和 :explain out。"""),
    "help.keys": ("""\
Keys
  Enter          run, or continue an unfinished statement on a `...` line (auto-indent)
  blank line     ends a block (def, for, while, if, with, try, class)
  Esc Enter      run now, even inside a block
  Tab            complete a name, attribute, keyword argument, command or path; indent at line start
  Up / Down      history (kept between sessions);  Ctrl-R searches it
  Ctrl-C         clear the line, or stop a running statement (variables are kept)
  Ctrl-D         exit (on an empty line); `exit` and `quit` work too""",
                 """\
按键
  Enter          运行，或在未完成的语句后换到 `...` 行继续（自动缩进）
  空行           结束一个代码块（def、for、while、if、with、try、class）
  Esc Enter      立即运行，即使在代码块中
  Tab            补全名称、属性、关键字参数、命令或路径；在行首时缩进
  Up / Down      历史记录（跨会话保存）；Ctrl-R 搜索历史
  Ctrl-C         清除当前行，或停止正在运行的语句（变量会保留）
  Ctrl-D         退出（在空行上）；也可以输入 `exit` 或 `quit`"""),
    # exercise checks (gradrepl.tutor.check)
    "check.should_be_none": ("{label} should be None", "{label} 应该是 None"),
    "check.is_none": ("{label} is None", "{label} 是 None"),
    "check.shape": ("{label} has shape {got}; expected shape {want}", "{label} 的形状是 {got}；应为 {want}"),
    "check.value": ("{label} is {got}, which is not what the task asks for", "{label} 的值是 {got}，不符合题目要求"),
    "check.mismatch": ("{label} is {actual}; expected {wanted}", "{label} 是 {actual}；应为 {wanted}"),
    "check.or": (" or ", " 或 "),
    "check.reassigned": ("'{name}' must stay the tensor the lesson built (it was assigned again)",
                         "'{name}' 必须仍是课程建好的那个张量（它被重新赋值了）"),
    "check.never_reached": ("backward never reached {name}", "反向传播没有到达 {name}"),
    "check.reached": ("backward reached {name} {times}", "反向传播到达 {name} {times}"),
    "check.runs": ("{reached}; the task needs it reached {want}", "{reached}；题目要求 {want}"),
    "check.not_at_all": ("not at all", "0 次"),
    "check.once": ("once", "1 次"),
    "check.twice": ("twice", "2 次"),
    "check.times": ("{n} times", "{n} 次"),
    "check.no_variable": ("there is no variable '{name}' yet", "还没有变量 '{name}'"),
    "check.not_tensor": ("'{name}' should be a tensor", "'{name}' 应该是张量"),
    # gradrepl lesson's errors
    "cli.no_lesson": ("error: no lesson named {name} (known: {known})", "错误：没有名为 {name} 的课程（已有：{known}）"),
    "cli.one_lesson": ("error: play one lesson at a time", "错误：一次只能学一课"),
    "cli.needs": ("error: lesson {id} needs {names}, which this gradrepl does not have yet",
                  "错误：课程 {id} 需要 {names}，而这个版本的 gradrepl 还没有"),
    # the REPL's screens
    "repl.intro": ("Type PyTorch code (torch is imported; exp, ones, tensor ... work without the prefix). Commands:",
                   "输入 PyTorch 代码（torch 已导入；exp、ones、tensor 等不加前缀也能用）。命令："),
    "repl.in_lesson": ("in a lesson: ", "课程中："),
    "repl.more": (":help autograd explains the ideas, :help keys the keys.",
                  ":help autograd 讲解基本概念，:help keys 讲解按键。"),
    "repl.banner": ("gradrepl {version}, autograd you can watch. :help, :lesson, Ctrl-D exits.",
                    "gradrepl {version}，看得见的 autograd。:help、:lesson，Ctrl-D 退出。"),
    "repl.grad_changed": (".grad changed", ".grad 有变化"),
    "repl.new_grad": ("new grad", "新的 grad"),
    "repl.name": ("name", "名称"),
    "repl.shape": ("shape", "形状"),
    "repl.changed_in_place": ("{name} (changed in place)", "{name}（被原地修改）"),
    "repl.shape_is": ("shape {shape}", "形状 {shape}"),
    "repl.lesson_needs": ("lesson {id} needs {names}, which this gradrepl does not have yet",
                          "课程 {id} 需要 {names}，而这个版本的 gradrepl 还没有"),
    "repl.no_lesson": ("{command}: no lesson is running; start one with :lesson NAME",
                       "{command}：没有正在进行的课程；用 :lesson NAME 开始一课"),
    "repl.unknown": ("unknown command {command} (:help lists them)", "未知命令 {command}（:help 列出所有命令）"),
    "repl.unknown_close": ("unknown command {command}; did you mean {close}? (:help lists them)",
                           "未知命令 {command}；你是不是想输入 {close}？（:help 列出所有命令）"),
    "repl.cannot_read": (":load: cannot read {path}: {reason}", ":load：无法读取 {path}：{reason}"),
    "repl.loaded": ("{path}: loaded; {count} statements ran", "{path}：已载入；运行了 {count} 条语句"),
    "repl.load_stopped": ("{path}: stopped at the error above; {count} statements ran",
                          "{path}：在上面的错误处停止；运行了 {count} 条语句"),
    "repl.load_names": ("; names: {names}", "；名称：{names}"),
    "repl.cannot_write": (":save: cannot write {path}: {reason}", ":save：无法写入 {path}：{reason}"),
    "repl.saved": ("saved {count} statements to {path} as a PyTorch script (shorthand expanded, echoed values "
                   "printed): `python {path}` with PyTorch, or `gradrepl run {path}`, prints what this session "
                   "printed",
                   "已把 {count} 条语句保存到 {path}，写成 PyTorch 脚本（简写已展开，回显的值改为打印）："
                   "用 PyTorch 运行 `python {path}`，或者运行 `gradrepl run {path}`，输出与本会话相同"),
    "repl.no_such_lesson": (":lesson: no lesson named {name} (known: {known})",
                            ":lesson：没有名为 {name} 的课程（已有：{known}）"),
    "repl.shorthand_tip": ("tip: {names} without torch. is gradrepl shorthand; a PyTorch script writes {spelled} "
                           "(:save does it for you)",
                           "小贴士：不加 torch. 的 {names} 是 gradrepl 的简写；PyTorch 脚本要写成 {spelled}"
                           "（:save 会替你写好）"),
    "repl.interrupted": (": stopped; your variables are kept", "：已停止；你的变量都还在"),
    "repl.grad_mode_on": ("grad mode: enabled", "梯度模式：开启"),
    "repl.grad_mode_off": ("grad mode: no_grad", "梯度模式：no_grad"),
    "repl.tensor_count": ("tensors: {count}", "张量：{count}"),
    "repl.toolbar_help": (":help  Ctrl-D exits", ":help  Ctrl-D 退出"),
    "repl.lesson_status": ("lesson {id} {step}/{total}", "课程 {id} {step}/{total}"),
    "repl.no_help": ("no help on {topic}; topics: {topics}", "没有关于 {topic} 的帮助；可用主题：{topics}"),
    "repl.no_vars": ("no variables yet", "还没有变量"),
    "repl.tensors": ("tensors", "张量"),
    "repl.others": ("others: ", "其他："),
    "repl.no_grads": ("no tensor has a .grad yet (call backward() on a result)",
                      "还没有张量有 .grad（先对某个结果调用 backward()）"),
    "repl.reset": ("session reset: every variable is gone (torch is still imported)",
                   "会话已重置：所有变量都已清除（torch 仍已导入）"),
    "repl.grad_of_shape": ("tensor of shape {shape}", "形状为 {shape} 的张量"),
    "repl.has_grad": ("yes {shape}", "有 {shape}"),
    "repl.grad_none": ("{name}.grad is None: {why}", "{name}.grad 是 None：{why}"),
    "repl.not_leaf": ("it is not a leaf: call .retain_grad() on it before backward()",
                      "它不是叶子节点：在 backward() 之前对它调用 .retain_grad()"),
    "repl.not_reached": ("no backward() has reached it yet", "还没有 backward() 到达它"),
    "repl.no_requires_grad": ("it does not require grad", "它不需要梯度（requires_grad=False）"),
    "repl.no_param_grad": ("no parameter of {name} has a .grad yet (call backward() on a loss computed with it)",
                           "{name} 的参数还都没有 .grad（对用它算出的损失调用 backward()）"),
    "repl.not_tensor": (":grad: {name} is not a tensor in this session", ":grad：{name} 不是本会话中的张量"),
    "repl.lesson_start": ("start one with :lesson NAME (a number works too)", "用 :lesson NAME 开始一课（也可以用编号）"),
    "repl.lang": ("language: {language}", "语言：{language}"),
    "repl.tutor_on": ("tutor annotations on", "导师注释：开"),
    "repl.tutor_off": ("tutor annotations off", "导师注释：关"),
    "repl.graph_saved": ("graph of {name} saved to {path}", "{name} 的计算图已保存到 {path}"),
    "repl.usage": ("usage: {usage}", "用法：{usage}"),
    "repl.hint": ("hint: {text}", "提示：{text}"),
    # gradrepl.viz: :explain
    "viz.explain_title": ("Chain rule for {root}", "{root} 的链式法则"),
    "viz.explain_order": (", node by node in the order the engine runs them.", "：按引擎运行的顺序逐个节点展示。"),
    "viz.start": ("start: ", "起点："),
    "viz.start_scalar": ("d {root} / d {root} = {value} (backward() of a one-element tensor)",
                         "d {root} / d {root} = {value}（对单元素张量调用 backward()）"),
    "viz.start_ones": ("d {root} / d {root} = {value} (ones: {root} is not a scalar, as {root}.sum().backward() "
                       "would start)",
                       "d {root} / d {root} = {value}（全为 1：{root} 不是标量，与 {root}.sum().backward() 的起点相同）"),
    "viz.start_given": ("the gradient passed for {root}: {value}", "为 {root} 传入的梯度：{value}"),
    "viz.more_steps": ("... {count} more steps, each applying its node's rule the same way ...",
                       "……还有 {count} 步，每一步都以同样的方式应用其节点的规则……"),
    "viz.produced": ("  (produced {output})", "（产生 {output}）"),
    "viz.sum_of": ("  receives the sum of {count} gradients", "  接收 {count} 个梯度之和"),
    "viz.rule": ("rule", "规则"),
    "viz.with": ("with", "其中"),
    "viz.grad": ("grad", "梯度"),
    "viz.output_k": ("output {k}: {value}", "输出 {k}：{value}"),
    "viz.nothing": ("nothing (no gradient needed)", "无（不需要梯度）"),
    "viz.result": ("Result (what the engine accumulates into each leaf's .grad):",
                   "结果（引擎累加到每个叶子节点 .grad 中的值）："),
    "viz.no_grad_reached": ("None (no gradient reached it)", "None（没有梯度到达它）"),
    "viz.symbolically": ("Symbolically:", "符号形式："),
    "viz.big": ("(shape {shape}, {count} values)", "（形状 {shape}，共 {count} 个值）"),
    # :graph
    "viz.value": ("value {value}", "值 {value}"),
    "viz.grad_fact": ("grad {value}", "梯度 {value}"),
    "viz.shown_above": (" (shown above)", "（见上方）"),
    "viz.acc_shown_above": (" of {leaf} (shown above)", "（{leaf} 的，见上方）"),
    "viz.no_gradient": ("no gradient (constant or requires_grad=False)", "无梯度（常量或 requires_grad=False）"),
    "viz.alike_inputs": ("×{count} inputs like this one ({hidden} nodes not drawn)",
                         "×{count} 个与此相同的输入（{hidden} 个节点未画出）"),
    "viz.step_repeats": ("this step repeats ×{count} ({hidden} nodes not drawn)",
                         "此步骤重复 ×{count}（{hidden} 个节点未画出）"),
    "viz.steps_repeat": ("these {steps} steps repeat ×{count} ({hidden} nodes not drawn)",
                         "这 {steps} 步重复 ×{count}（{hidden} 个节点未画出）"),
    "viznote.unnamed_leaf": ("(unnamed leaf)", "（未命名的叶子节点）"),
    # :gradcheck
    "viz.gradcheck_title": ("gradcheck {root}: autograd vs finite differences (eps {eps})",
                            "gradcheck {root}：autograd 与有限差分对照（eps {eps}）"),
    "viz.col_leaf": ("leaf", "叶子节点"),
    "viz.col_shape": ("shape", "形状"),
    "viz.col_abs": ("max abs error", "最大绝对误差"),
    "viz.col_rel": ("max rel error", "最大相对误差"),
    "viz.col_result": ("result", "结果"),
    "viz.pass": ("pass", "通过"),
    "viz.fail": ("FAIL", "未通过"),
    "viz.autograd_row": ("{name}: autograd {value}", "{name}：autograd {value}"),
    "viz.numeric_row": ("numeric ", "有限差分"),
    "viz.why_differs": ("autograd differs from how the value really changes: a wrong derivative rule; an input "
                        "sitting on a kink (relu, abs, clamp or max at exactly the corner: the finite difference "
                        "straddles it and averages the two slopes, autograd takes one side); or the graph cut on "
                        "purpose (detach(), no_grad()), as 001's detach_() example does",
                        "autograd 与数值的实际变化不一致，原因可能是：导数规则写错了；某个输入恰好落在折点上"
                        "（relu、abs、clamp 或 max 恰好在拐角处：有限差分跨过折点，取两侧斜率的平均，而 autograd "
                        "只取一侧）；或者计算图被有意截断（detach()、no_grad()），就像 001 中 detach_() 的例子"),
    "viz.kink": ("{name} sits on the kink of {op} ({where}): the slopes on its two sides differ, the finite "
                 "difference straddles the corner and averages them ({numeric}), autograd takes one side "
                 "({analytic}, PyTorch's convention); both are right, gradcheck needs inputs away from kinks",
                 "{name} 恰好落在 {op} 的折点上（{where}）：折点两侧的斜率不同，有限差分跨过拐角，得到两侧的"
                 "平均值（{numeric}），autograd 只取一侧（{analytic}，PyTorch 的约定）；两者都没有错，"
                 "gradcheck 需要远离折点的输入"),
    "viz.passed": ("passed", "通过"),
    "viz.failed": ("FAILED", "未通过"),
    "viz.holds": (": |autograd - numeric| <= {atol} + {rtol} * |numeric| holds for every element",
                  "：每个元素都满足 |autograd - numeric| <= {atol} + {rtol} * |numeric|"),
    "viz.not_holds": (": |autograd - numeric| <= {atol} + {rtol} * |numeric| does not hold everywhere",
                      "：|autograd - numeric| <= {atol} + {rtol} * |numeric| 并非处处成立"),
    # :jacobian
    "viz.jacobian_title": ("Jacobian d {y} / d {x}", "雅可比矩阵 d {y} / d {x}"),
    "viz.jacobian_shape": ("  ({rows} x {cols}: row i is the gradient of {y}.flatten()[i], column j is "
                           "{x}.flatten()[j])",
                           "（{rows} x {cols}：第 i 行是 {y}.flatten()[i] 的梯度，第 j 列对应 {x}.flatten()[j]）"),
    "viz.jacobian_how": ("built like 001: {y}.backward(e_i, retain_graph=True) once per element of {y}, reading "
                         "{x}.grad each time",
                         "构造方式与 001 相同：对 {y} 的每个元素调用一次 {y}.backward(e_i, retain_graph=True)，"
                         "每次读取 {x}.grad"),
    # notes made inside gradrepl.viz (English there; localize() shows them)
    "viznote.at": ("{line}  = {value} at {at}", "{line}  = {value}（在 {at} 处）"),
    "viznote.vector": ("checking sum(v * {root}) for the vector given", "检查的是 sum(v * {root})，v 为给定的向量"),
    "viznote.ones": ("{root} is not a scalar: checking {root}.sum() (v = ones)",
                     "{root} 不是标量：检查的是 {root}.sum()（v 全为 1）"),
    "viznote.unnamed": ("a leaf of shape {shape} held by no variable is not checked",
                        "没有变量持有的形状为 {shape} 的叶子节点不做检查"),
    "viznote.own_dtype": ("leaves kept in their own dtype: in float64 the statements fail ({error})",
                          "叶子节点保留原来的 dtype：用 float64 时语句会出错（{error}）"),
    "viznote.coarse": ("{root} is computed in {dtype} even with float64 leaves (PyTorch's promotion rules): eps 1e-3 "
                       "and tolerances 1e-2 are used",
                       "即使叶子节点是 float64，{root} 仍以 {dtype} 计算（PyTorch 的类型提升规则）："
                       "因此使用 eps 1e-3 和容差 1e-2"),
    # VizError messages (made in English; localize() shows them). localize() tries the keys in
    # this order: a template that another one's text could also match comes first
    "vizerr.undefined": ("name '{name}' is not defined", "名称 '{name}' 未定义"),
    "vizerr.undefined_close": ("name '{name}' is not defined; did you mean {close}?",
                               "名称 '{name}' 未定义；你是不是想写 {close}？"),
    "vizerr.not_tensor": ("{name} is not a tensor", "{name} 不是张量"),
    "vizerr.format": ("unknown graph format '{fmt}' (text, dot, mermaid; svg and png are saved to a file)",
                      "未知的图格式 '{fmt}'（text、dot、mermaid；svg 和 png 保存为文件）"),
    "vizerr.suffix": ("cannot tell the format of '{path}': use a .svg, .png, .dot, .mmd or .txt name",
                      "无法判断 '{path}' 的格式：请用 .svg、.png、.dot、.mmd 或 .txt 结尾的文件名"),
    "vizerr.write": ("cannot write '{path}': {reason}", "无法写入 '{path}'：{reason}"),
    "vizerr.no_graph": ("{root} has no autograd graph: requires_grad=False and grad_fn=None (make a leaf with "
                        "requires_grad=True and compute from it)",
                        "{root} 没有 autograd 计算图：requires_grad=False 且 grad_fn=None（用 requires_grad=True "
                        "创建叶子节点，再从它开始计算）"),
    "vizerr.no_graph_short": ("{root} has no autograd graph: requires_grad=False and grad_fn=None",
                              "{root} 没有 autograd 计算图：requires_grad=False 且 grad_fn=None"),
    "vizerr.is_leaf": ("{root} is a leaf: backward from it only sets {root}.grad to the gradient you pass; there "
                       "is no chain rule to show",
                       "{root} 是叶子节点：从它开始的 backward 只是把你传入的梯度写入 {root}.grad，没有链式法则可以展示"),
    "vizerr.grad_shape": ("the gradient for {root} must have its shape {shape}, got {got}",
                          "{root} 的梯度必须与它形状相同 {shape}，实际为 {got}"),
    "vizerr.changed": ("{names} changed in place after {root} was computed (an update such as `w -= lr * w.grad`), "
                       "so {root}'s graph no longer matches the values it saved and backward from it fails, in "
                       "PyTorch too: compute {root} again from the current values, then ask again",
                       "{names} 在 {root} 算出之后被原地修改了（例如 `w -= lr * w.grad` 这样的更新），所以 {root} "
                       "的计算图与它保存的值不再一致，从它开始的 backward 会失败，在 PyTorch 中也一样：用当前的值"
                       "重新计算 {root}，然后再试"),
    "vizerr.shape_of": ("a tensor of shape {shape}", "一个形状为 {shape} 的张量"),
    "vizerr.freed_explain": ("the graph of {root} was freed by a backward() that ran before gradrepl could keep "
                             "its values: compute it again, then explain it",
                             "{root} 的计算图已被之前的 backward() 释放，gradrepl 没能保留它的值：重新计算它，"
                             "然后再解释"),
    "vizerr.freed": ("the graph of {root} was freed by a backward() that ran before gradrepl could keep its "
                     "values: compute it again, then ask again",
                     "{root} 的计算图已被之前的 backward() 释放，gradrepl 没能保留它的值：重新计算它，然后再试"),
    "vizerr.backward_failed": ("backward from {root} failed: {error}", "从 {root} 开始的 backward 失败：{error}"),
    "vizerr.interrupted": ("gradcheck interrupted (Ctrl-C)", "gradcheck 被中断（Ctrl-C）"),
    "vizerr.rerun_failed_line": ("rerunning the statements failed ({error}, line {line})",
                                 "重新运行语句时出错（{error}，第 {line} 行）"),
    "vizerr.rerun_failed": ("rerunning the statements failed ({error})", "重新运行语句时出错（{error}）"),
    "vizerr.no_leaves": ("{root} does not depend on any tensor with requires_grad=True: nothing to check",
                         "{root} 不依赖任何 requires_grad=True 的张量：没有可检查的内容"),
    "vizerr.unnamed_leaves": ("the leaves of {root} are held by no variable: name them to check them",
                              "{root} 的叶子节点没有被任何变量持有：给它们起名后才能检查"),
    "vizerr.too_many": ("checking {root} needs {count} reruns of the statements (two per leaf element); the "
                        "limit is {limit}: check a smaller example",
                        "检查 {root} 需要重新运行语句 {count} 次（每个叶子元素两次）；上限是 {limit}：请检查一个更小的例子"),
    "vizerr.vector_shape": ("the vector must have {root}'s shape {shape}, got {got}",
                            "向量必须与 {root} 形状相同 {shape}，实际为 {got}"),
    "vizerr.too_slow": ("checking {root} needs {count} reruns of the statements, about {seconds} s: check a "
                        "smaller or faster example",
                        "检查 {root} 需要重新运行语句 {count} 次，约 {seconds} 秒：请检查一个更小或更快的例子"),
    "vizerr.not_defined_again": ("rerunning the statements does not define {root}", "重新运行语句后没有定义 {root}"),
    "vizerr.not_reproduced": ("rerunning the statements does not reproduce {root} (random draws without "
                              "torch.manual_seed, or values changed by later statements), so finite differences "
                              "would compare different functions",
                              "重新运行语句得不到同样的 {root}（没有 torch.manual_seed 的随机抽样，或者值被后面的语句"
                              "改变了），所以有限差分比较的将是不同的函数"),
    "vizerr.cannot_vary": ("cannot vary {names}: gradcheck replaces leaves right after the top-level statement "
                           "that creates them, so create them outside loops and blocks",
                           "无法改变 {names}：gradcheck 在创建叶子节点的顶层语句之后立即替换它们，"
                           "所以请在循环和代码块之外创建它们"),
    "vizerr.no_requires_grad": ("{x} does not require grad: there is no derivative with respect to it",
                                "{x} 不需要梯度：没有对它的导数"),
    "vizerr.no_grad_fn": ("{y} has no grad_fn: it was not computed from tensors that require grad",
                          "{y} 没有 grad_fn：它不是由需要梯度的张量算出的"),
    "vizerr.jacobian_size": ("{y} has {count} elements: the Jacobian needs one backward each; the limit is {limit}",
                             "{y} 有 {count} 个元素：雅可比矩阵每个元素需要一次 backward；上限是 {limit}"),
    "vizerr.no_dot": ("drawing {fmt} needs Graphviz's `dot` program, which is not installed: install the Debian "
                      "package `graphviz` (apt-get install graphviz), or use --format dot, mermaid or text",
                      "画 {fmt} 需要 Graphviz 的 `dot` 程序，但它没有安装：安装 Debian 软件包 `graphviz`"
                      "（apt-get install graphviz），或者使用 --format dot、mermaid 或 text"),
    "vizerr.dot_failed": ("dot failed: {error}", "dot 运行失败：{error}"),
    # budget errors, as gradrepl.limits, gradrepl.lang and the engine word them (English there;
    # the REPL shows them with localize(); a wording changed there falls back to English)
    "budget.elements_shape": ("tensor of shape {shape} would have {numel} elements, over the limit of {limit} "
                              "(raise it with --max-elements)",
                              "形状为 {shape} 的张量将有 {numel} 个元素，超过了上限 {limit}（用 --max-elements 提高上限）"),
    "budget.elements": ("tensor would have {numel} elements, over the limit of {limit} (raise it with "
                        "--max-elements)", "张量将有 {numel} 个元素，超过了上限 {limit}（用 --max-elements 提高上限）"),
    "budget.memory": ("tensor memory limit exceeded: more than {limit} bytes of live tensor data (raise it with "
                      "--max-memory)", "超出张量内存上限：存活的张量数据超过 {limit} 字节（用 --max-memory 提高上限）"),
    "budget.steps": ("step budget exhausted: more than {limit} interpreter steps in one statement (raise it with "
                     "--max-steps)", "步数预算用完：一条语句超过了 {limit} 个解释器步骤（用 --max-steps 提高上限）"),
    "budget.depth": ("call depth limit exceeded: more than {limit} nested calls (raise it with --max-depth)",
                     "超出调用深度上限：嵌套调用超过 {limit} 层（用 --max-depth 提高上限）"),
    "budget.time": ("time limit exceeded: the statement ran longer than {limit} s (raise it with --time-limit)",
                    "超出时间上限：这条语句运行超过了 {limit} 秒（用 --time-limit 提高上限）"),
    "budget.items": ("sequence too long: the result would have {n} items, over the limit of {limit} (raise it "
                     "with --max-items)", "序列太长：结果将有 {n} 项，超过了上限 {limit}（用 --max-items 提高上限）"),
    "budget.tolist": ("tolist() of {n} elements is over the limit of {limit} items (raise it with --max-items)",
                      "对 {n} 个元素调用 tolist() 超过了 {limit} 项的上限（用 --max-items 提高上限）"),
    "budget.int_bits": ("integer too large: the result would have about {bits} bits, over the limit of {limit} "
                        "(raise it with --max-int-bits)",
                        "整数太大：结果约有 {bits} 位，超过了上限 {limit}（用 --max-int-bits 提高上限）"),
    "budget.text": ("output limit exceeded: the text of this {what} would be longer than {limit} characters "
                    "(raise it with --max-output)",
                    "超出输出上限：这个 {what} 的文本将超过 {limit} 个字符（用 --max-output 提高上限）"),
    "budget.printed": ("output limit exceeded: more than {limit} characters printed by one statement (raise it "
                       "with --max-output)", "超出输出上限：一条语句打印了超过 {limit} 个字符（用 --max-output 提高上限）"),
    "budget.tensor_text": ("output limit exceeded: printing this tensor would write more than {limit} characters "
                           "(raise it with --max-output)",
                           "超出输出上限：打印这个张量将写出超过 {limit} 个字符（用 --max-output 提高上限）"),
    "budget.ast_depth": ("statement too deeply nested: more than {limit} levels of syntax (raise it with "
                         "--max-ast-depth)", "语句嵌套太深：语法层级超过 {limit} 层（用 --max-ast-depth 提高上限）"),
    "budget.source": ("statement too long: {n} characters of source, over the limit of {limit} (raise it with "
                      "--max-source)", "语句太长：源代码有 {n} 个字符，超过了上限 {limit}（用 --max-source 提高上限）"),
    "budget.work": ("time limit exceeded before it started: this matrix product needs about {ops} multiply-adds, "
                    "more than {limit} s allows (raise it with --time-limit)",
                    "开始前就超出时间上限：这个矩阵乘法大约需要 {ops} 次乘加运算，超出了 {limit} 秒的允许范围"
                    "（用 --time-limit 提高上限）"),
    "budget.compile_depth": ("statement too deeply nested to compile", "语句嵌套太深，无法编译"),
    # hints gradrepl adds under an error (gradrepl.lang; English there, localize() shows them)
    "hint.scalar": ("pass a gradient of the same shape, such as {y}.backward(torch.ones_like({y})), or reduce "
                    "first: {y}.sum().backward()",
                    "传入一个形状相同的梯度，例如 {y}.backward(torch.ones_like({y}))，或者先归约成标量："
                    "{y}.sum().backward()"),
    "hint.requires_grad": ("nothing this result was computed from requires grad: create the leaf with "
                           "requires_grad=True (x = torch.ones(2, requires_grad=True)); if it was computed from a "
                           "gradient (torch.autograd.grad, .grad), compute that gradient with create_graph=True",
                           "算出这个结果所用的张量都不需要梯度：创建叶子节点时设置 requires_grad=True"
                           "（x = torch.ones(2, requires_grad=True)）；如果它是由梯度（torch.autograd.grad、.grad）"
                           "算出的，计算那个梯度时传入 create_graph=True"),
    "hint.retain_graph": ("pass retain_graph=True to the first backward() if you need to run backward again",
                          "如果需要再次运行 backward，在第一次 backward() 时传入 retain_graph=True"),
    "hint.leaf_in_place": ("update leaves inside `with torch.no_grad():` (x -= lr * x.grad there)",
                           "在 `with torch.no_grad():` 中更新叶子节点（在其中写 x -= lr * x.grad）"),
    "hint.lives_in": ("it lives in {home}: from {home} import {name}", "它在 {home} 中：from {home} import {name}"),
    "hint.did_you_mean": ("did you mean {name}?", "你是不是想写 {name}？"),
    "hint.no_module": ("gradrepl has no {name}: a program imports torch, numpy, math and random only",
                       "gradrepl 没有 {name}：程序只能导入 torch、numpy、math 和 random"),
    "import.refused": ("import of '{name}' is not allowed in gradrepl (only torch, numpy, math and random)",
                       "gradrepl 不允许导入 '{name}'（只能导入 torch、numpy、math 和 random）"),
    "numpy.index_range": ("gradrepl's np.{name}[...] takes ranges of numbers with a stop (start:stop:step)",
                          "gradrepl 的 np.{name}[...] 只接受带终点的数值范围（start:stop:step）"),
    "numpy.operand": ("gradrepl's numpy takes numbers, lists of numbers, arrays and tensors, not {name}",
                      "gradrepl 的 numpy 只接受数、数的列表、数组和张量，不接受 {name}"),
    "numpy.not_numbers": ("gradrepl's numpy holds numbers only (bool, integer and float arrays; no object "
                          "or string arrays)",
                          "gradrepl 的 numpy 只存放数（布尔、整数和浮点数组；没有 object 或字符串数组）"),
    "numpy.object_dtype": ("dtype=object is not offered by gradrepl's numpy (arrays hold numbers only)",
                           "gradrepl 的 numpy 不提供 dtype=object（数组只存放数）"),
    "binomial.endless": ("torch.binomial with an infinite or NaN count and a probability between 0 and 1 never "
                         "returns in PyTorch (its sampler loops forever): gradrepl refuses it",
                         "torch.binomial 的 count 为无穷或 NaN 且概率在 0 与 1 之间时，PyTorch 永远不会返回"
                         "（其采样循环不会结束）：gradrepl 拒绝执行"),
    "dtype.unsigned_wide": ("torch.{name} is not supported in gradrepl: PyTorch itself implements only a few "
                            "CPU kernels for uint16/uint32/uint64 (no add, no < or >, no max); use torch.int32 or "
                            "torch.int64 (torch.uint8 for bytes)",
                            "gradrepl 不支持 torch.{name}：PyTorch 本身在 CPU 上只为 uint16/uint32/uint64 实现了少数"
                            "运算（没有加法、< 或 >、max）；请用 torch.int32 或 torch.int64（字节用 torch.uint8）"),
    "numpy.refused": ("numpy.{name} is not offered by gradrepl (no files, no raw memory, no host objects)",
                      "gradrepl 不提供 numpy.{name}（不读写文件、不访问原始内存、不交出宿主对象）"),
    "dist.gamma_grad": ("{name}.rsample with a concentration that requires grad is not supported in gradrepl yet "
                        "(PyTorch's _standard_gamma_grad); sample() or a concentration without grad works",
                        "gradrepl 暂不支持 concentration 需要梯度时的 {name}.rsample（PyTorch 的 _standard_gamma_grad）；"
                        "可用 sample()，或让 concentration 不需要梯度"),
    "complex.unsupported": ("{name}(): complex tensors are not supported by this op in gradrepl yet (got {dtype})",
                            "gradrepl 的 {name}() 暂不支持复数张量（收到 {dtype}）"),
    "complex.no_grad": ("{name}: the gradient for complex tensors is not implemented in gradrepl yet (use it under "
                        "torch.no_grad() or on detached tensors)",
                        "gradrepl 暂未实现 {name} 对复数张量的梯度（请在 torch.no_grad() 下或对 detach 后的张量使用）"),
    "complex.chalf": ("{name}: complex32 (chalf) tensors are not supported in gradrepl (complex64 and complex128 are)",
                      "{name}：gradrepl 不支持 complex32（chalf）张量（支持 complex64 与 complex128）"),
    "hint.write_torch": ("write torch.{name}: this file imports torch, so it runs as a PyTorch script, where bare "
                         "{name} is not defined (the shorthand is for the prompt and for files that never import "
                         "torch)",
                         "请写 torch.{name}：这个文件导入了 torch，因此按 PyTorch 脚本运行，不加前缀的 {name} "
                         "没有定义（简写只用于提示符和从不导入 torch 的文件）"),
}


def default_lang(environ: Mapping[str, str] = os.environ) -> str:
    """The first set locale variable decides, as in POSIX: zh_* means Chinese."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def msg(key: str, lang: str, **fields) -> str:
    en, zh = MESSAGES[key]
    return (zh if lang == "zh" else en).format(**fields)


def colon(lang: str) -> str:
    """`: ` in English, `：` (full width, no space) in Chinese."""
    return "：" if lang == "zh" else ": "


LOCALIZED = ("hint.", "vizerr.", "viznote.", "budget.")
_FIELD = re.compile(r"\{(\w+)\}")
_PATTERNS: list = []
# localize() matches templates whose fields are lazy groups: its work grows with a power of the
# text's length, and a field can be user text (a hint quotes the learner's expression); longer
# text than any message gradrepl words itself stays in English.
MAX_LOCALIZED = 2000


def _patterns() -> list:
    if not _PATTERNS:
        for key, (en, _zh) in MESSAGES.items():
            if key.startswith(LOCALIZED):
                parts, seen, end = [], set(), 0
                for m in _FIELD.finditer(en):
                    parts.append(re.escape(en[end:m.start()]))
                    name = m.group(1)
                    parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.*?)")
                    seen.add(name)
                    end = m.end()
                parts.append(re.escape(en[end:]))
                _PATTERNS.append((key, re.compile("".join(parts), re.S)))
    return _PATTERNS


def localize(text: str, lang: str) -> str:
    """English `text` made by msg(key, "en", ...) from a hint.*, vizerr.* or viznote.* key,
    shown in `lang` (unchanged for lang "en" or text made otherwise: PyTorch's own messages).
    Fields are localized too, so a message that wraps another one comes out whole."""
    if lang != "zh" or not text or len(text) > MAX_LOCALIZED:
        return text
    for key, pattern in _patterns():
        m = pattern.fullmatch(text)
        if m is not None:
            return MESSAGES[key][1].format(**{k: localize(v, lang) for k, v in m.groupdict().items()})
    return text
