"""Input history in one file under the user data directory, rewritten atomically.

The file keeps prompt_toolkit's FileHistory layout (each line of an entry written
as `+line`, entries separated by other lines), so it stays readable. Every new
entry rewrites the file through a temporary file and os.replace: a crash never
leaves half a file (with two gradrepls open at once, the last one to store an entry
writes the file). When the directory cannot be written, history lives in memory
and `warning` says why.
"""
import os
import tempfile
from pathlib import Path

from prompt_toolkit.history import History

MAX_ENTRIES = 2000


def data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("gradrepl", appauthor=False))


class AtomicFileHistory(History):
    def __init__(self, path: Path):
        super().__init__()
        self.path = Path(path)
        self.warning: str | None = None
        self._entries: list[str] = []   # oldest first
        self._writable = True
        self._load()

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return
        except OSError as e:
            self.warning = f"could not read history from {self.path}: {e.strerror or e}"
            return
        lines: list[str] = []
        for line in text.split("\n"):
            if line.startswith("+"):
                lines.append(line[1:])
            elif lines:
                self._entries.append("\n".join(lines))
                lines = []
        if lines:
            self._entries.append("\n".join(lines))
        self._entries = self._entries[-MAX_ENTRIES:]

    def load_history_strings(self):
        return list(reversed(self._entries))      # newest first, as prompt_toolkit wants

    def entries(self) -> list[str]:
        return list(self._entries)

    def store_string(self, string: str) -> None:
        self._entries.append(string)
        del self._entries[:-MAX_ENTRIES]
        if not self._writable:
            return
        body = "".join("\n" + "".join(f"+{line}\n" for line in entry.split("\n"))
                       for entry in self._entries)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, body)
        except OSError as e:
            self._writable = False
            self.warning = (f"could not save history to {self.path}: {e.strerror or e}; "
                            f"history is kept for this session only")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same directory and os.replace."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
