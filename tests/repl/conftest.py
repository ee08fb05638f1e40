import io
import threading
import time
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from gradrepl.repl.history import AtomicFileHistory
from gradrepl.repl.render import make_console
from gradrepl.repl.repl import Repl

LESSONS = Path(__file__).resolve().parents[1] / "data" / "repl" / "lessons"


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    """Lesson progress and history go to a temporary user data directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path))


class Drive:
    """Type `keys` into a Repl through prompt_toolkit's pipe input; the output is plain text."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path

    def __call__(self, keys, *, history=None, lessons_dir=LESSONS, width=100, lesson=None):
        """`keys` is a string, or a list of strings and conditions: each string is typed once
        the condition before it (a function of the Repl, e.g. "the completion was inserted")
        holds, so that asynchronous work such as completion finishes first however loaded
        the machine is."""
        out = io.StringIO()
        with create_pipe_input() as pipe:
            repl = Repl(plain=True, lang="en", console=make_console(True, file=out, width=width),
                        history=history or AtomicFileHistory(self.tmp_path / "history"),
                        input=pipe, output=DummyOutput(), lessons_dir=lessons_dir)
            if isinstance(keys, str):
                pipe.send_text(keys)
                pipe.close()      # after the keys, end of input: the REPL exits as on Ctrl-D
            else:
                typist = threading.Thread(target=self._type, args=(pipe, keys, repl))
                typist.start()
            self.status = repl.run(lesson)
            if not isinstance(keys, str):
                typist.join()
        self.repl = repl
        return out.getvalue()

    @staticmethod
    def _type(pipe, chunks, repl, timeout=120):
        for chunk in chunks:
            if callable(chunk):
                deadline = time.monotonic() + timeout
                while not chunk(repl) and time.monotonic() < deadline:
                    time.sleep(0.02)
            else:
                pipe.send_text(chunk)
        pipe.close()


@pytest.fixture
def drive(tmp_path):
    return Drive(tmp_path)
