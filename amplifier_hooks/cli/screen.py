"""Another process's terminal, for a console that prints what that process would have.

``test`` may be judged by the workspace's server (`amplifier_hooks.transports.relay.trial`)
while a person reads its answer in their own terminal. Rich picks colours and widths
from the terminal it writes to and from the environment; here those are the caller's: the
caller sends whether its stdout is a terminal, its size and encoding (`Screen`), and its
environment, and `console_for` makes the console Rich would have made there.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import IO, Any, NamedTuple

from rich.console import Console

__all__ = ["Screen", "console_for", "screen_of"]


class Screen(NamedTuple):
    """The caller's stdout as a console sees it."""

    isatty: bool
    size: tuple[int, int] | None
    """(columns, lines) of the first of its stdin, stdout and stderr that has a size."""
    encoding: str
    environ: Mapping[str, str]


def screen_of(sent: object, environ: Mapping[str, str]) -> Screen:
    """The `Screen` a caller sent (`amplifier_hooks.transports.relay.trial.screen`);
    ValueError when it is not one."""
    if not isinstance(sent, dict):
        raise ValueError("no screen")
    isatty, size, encoding = sent.get("isatty"), sent.get("size"), sent.get("encoding")
    if not isinstance(isatty, bool):
        raise ValueError("screen: isatty is not a boolean")
    if size is not None and not (
        isinstance(size, list) and len(size) == 2 and all(type(n) is int for n in size)
    ):
        raise ValueError("screen: size is not two numbers")
    if encoding is not None and not isinstance(encoding, str):
        raise ValueError("screen: encoding is not a string")
    return Screen(isatty, None if size is None else (size[0], size[1]), encoding or "", environ)


class _Output(io.StringIO):
    """Collects what is printed, answering a console's questions as the caller's stdout."""

    def __init__(self, out: IO[str], screen: Screen) -> None:
        super().__init__()
        self._out = out
        self._screen = screen

    def isatty(self) -> bool:
        return self._screen.isatty

    @property
    def encoding(self) -> str:  # type: ignore[override]  # StringIO's is None
        return self._screen.encoding or "utf-8"

    def write(self, text: str) -> int:
        return self._out.write(text)

    def flush(self) -> None:
        self._out.flush()


def _digits(environ: Mapping[str, str], name: str) -> int | None:
    value = environ.get(name)
    return int(value) if value is not None and value.isdigit() else None


def console_for(out: IO[str], screen: Screen, **options: Any) -> Console:
    """A console writing to ``out`` as `amplifier_hooks.cli.report.make_console` would
    have made it in the caller's process: same terminal test, colours and size. Rich
    measures a terminal by asking the process's own file descriptors, which here are not
    the caller's, so the size is worked out as Rich does it, from what the caller sent."""
    env = screen.environ
    file = _Output(out, screen)
    probe = Console(file=file, _environ=env)
    width = None if probe.is_terminal or "COLUMNS" in env else 120
    width = width if width is not None else _digits(env, "COLUMNS")
    height = _digits(env, "LINES")
    if width is None or height is None:
        if probe.is_dumb_terminal:
            found = (80, 25)
        else:
            columns, lines = screen.size or (0, 0)
            given = _digits(env, "COLUMNS"), _digits(env, "LINES")
            columns = columns if given[0] is None else given[0]
            lines = lines if given[1] is None else given[1]
            found = (columns or 80, lines or 25)
        width = found[0] if width is None else width
        height = found[1] if height is None else height
    return Console(file=file, width=width, height=height, _environ=env, **options)
