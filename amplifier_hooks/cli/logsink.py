"""Where the library's logs go while the replay app owns the terminal."""

from __future__ import annotations

import io

__all__ = ["LogLines"]


class LogLines(io.StringIO):
    """A text stream that keeps what is written, for structlog while the app owns the
    terminal (a write to the real stderr would tear the screen)."""

    def __init__(self) -> None:
        super().__init__()
        self.pending: list[str] = []
        self._partial = ""

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        self.pending.extend(line for line in lines if line.strip())
        return len(text)

    def take(self) -> list[str]:
        """The complete lines written since the last call."""
        lines, self.pending = self.pending, []
        return lines
