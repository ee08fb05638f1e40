"""The tutor: lessons (lessons/*.md) parsed, played and checked.

Modules, one concern each:
  lesson       the lesson model and parser (format: lessons/README.md)
  check        state checks on the learner's session; expected values with tolerance
  expect       expected output of code steps (doctest style: `...`, 0x addresses)
  player       Player, the state machine a front end drives; play_through for --check/--auto
  runner       SandboxRunner: lesson code through gradrepl.lang.run_source(trusted=False)
  progress     ProgressStore: progress JSON under platformdirs' user data dir, atomic
  display      rich rendering: lesson table, steps, --auto playback
  interactive  a line-based player (`gradrepl lesson NAME`)
  cli          `gradrepl lesson ...` (main(args) -> exit status)

Driving a lesson from the REPL (`:lesson NAME`), without the line-based player::

    from gradrepl.tutor.lesson import find_lesson
    from gradrepl.tutor.lesson import Code, Exercise, Prose, load_all
    from gradrepl.tutor.player import Player
    from gradrepl.tutor.progress import ProgressStore
    from gradrepl.tutor.runner import SandboxRunner

    lesson = find_lesson(load_all(), name)            # None: unknown name
    store = ProgressStore()                           # store.warning: show it, carry on
    player = Player(lesson, lang, store.get(lesson.id))   # resumes when the lesson is unchanged
    runner = SandboxRunner(repl_session, tee=True)    # code steps print through the REPL session
    step = player.step                                # Prose | Code | Exercise; step.section: Text
    Player.run_code(step, runner)                     # CodeResult(output, expected, diff, matched)
    player.check(repl_session.namespace)              # after each learner input at an exercise
    player.next_hint(), player.solution()             # :hint, :solution (strings in player.lang)
    player.advance(), player.back(), player.restart() # Enter / :skip, :back, :restart
    store.update(lesson.id, player.progress())        # after every move

On resume, rebuild the session first: player.replay(lesson, runner, player.position)
runs the code steps and reference solutions before the current step, quietly.
Text values (titles, prose, hints) have .get(lang) for "en" / "zh".

Or reuse the line-based loop with the REPL's own prompt and session:
interactive.play(lesson, lang, input_fn=prompt, console=console,
runner=SandboxRunner(repl_session)); it prints the captured output itself.
"""
