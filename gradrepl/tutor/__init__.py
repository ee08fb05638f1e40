"""The tutor: lessons (lessons/*.md) parsed, played and checked.

Modules, one concern each:
  lesson       the lesson model and parser (format: lessons/README.md); find_lesson
  check        state checks on the learner's session; expected values with tolerance; Watch
               (backward passes through lesson-built tensors)
  tools        tool steps (`:explain out` ...) run on the session through gradrepl.viz
  messages     the players' commands and yes/no answers (what they say: gradrepl.messages)
  expect       expected output of code steps (doctest style: `...`, 0x addresses)
  player       Player, the state machine a front end drives; play_through for --check/--auto
  runner       SandboxRunner: lesson code through gradrepl.lang.run_source(trusted=False)
  progress     ProgressStore: progress JSON under platformdirs' user data dir, atomic
  display      rich rendering: lesson table, steps, --auto playback
  interactive  a line-based player (`gradrepl lesson NAME` when piped)
  cli          `gradrepl lesson ...` (main(args, play_on_terminal) -> exit status); the REPL
               enters through gradrepl.repl.lesson.main: the tutor never imports the REPL

Driving a lesson from the REPL (`:lesson NAME`), without the line-based player::

    from gradrepl.tutor.lesson import Code, Exercise, Prose, Tool, find_lesson, load_all
    from gradrepl.tutor.player import Player
    from gradrepl.tutor.progress import ProgressStore
    from gradrepl.tutor.runner import SandboxRunner

    lesson = find_lesson(load_all(), name)            # None: unknown name
    store = ProgressStore()                           # store.warning: show it, carry on
    player = Player(lesson, lang, store.get(lesson.id))   # resumes when the lesson is unchanged
    runner = SandboxRunner(repl_session, tee=True)    # code steps print through the REPL session
    step = player.step                                # Prose | Code | Exercise | Tool; step.section: Text
    Player.run_code(step, runner)                     # CodeResult(output, expected, diff, matched)
    attempt = Attempt(lesson, player.position, runner)   # at an exercise: rebuilt session, Watch
    attempt.typed += 1                                # after each learner input
    attempt.judge(player)                             # on submit; failed: attempt.again(); leave: close()
    player.next_hint(), player.solution()             # :hint, :solution (strings in player.lang)
    player.advance(), player.back(), player.restart() # Enter / :skip, :back, :restart
    store.update(lesson.id, player.progress())        # after every move

On resume, rebuild the session first: rebuild(lesson, runner, player.position) (player module)
runs the code steps and reference solutions before the current step, quietly.
Text values (titles, prose, hints) have .get(lang) for "en" / "zh".

Or reuse the line-based loop with the REPL's own prompt and session:
interactive.play(lesson, lang, input_fn=prompt, console=console,
runner=SandboxRunner(repl_session)); it prints the captured output itself.
"""
