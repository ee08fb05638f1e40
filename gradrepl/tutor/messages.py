"""What the lesson players say, in English and Chinese (full-width punctuation in Chinese)."""
from __future__ import annotations

COMMANDS = (":hint", ":solution", ":check", ":skip", ":back", ":restart", ":reset", ":quit")

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
}


def msg(key: str, lang: str, **kwargs) -> str:
    en, zh = MESSAGES[key]
    return (zh if lang == "zh" else en).format(**kwargs)


def yes(answer: str, default: bool) -> bool:
    """A [Y/n] or [y/N] answer; Enter takes the default."""
    answer = answer.strip().lower()
    if not answer:
        return default
    return answer in ("y", "yes", "是", "好")
