"""How the library logs: structlog on top of the standard library's ``logging``.

A library never writes to stdout: that stream belongs to the host (a Claude Code command
hook's answer travels there). So every logger here is a structlog logger bound explicitly
to the stdlib logger ``amplifier_hooks`` -- it never follows structlog's global
configuration, whose unconfigured default prints to stdout. The host decides what is shown
by configuring ``logging``; a program that configures nothing gets Python's own default,
warnings and errors on stderr.

Each record carries the structured fields as ``record.structlog`` (a dict), and its message
is the event with its fields as ``key=value`` text, so a plain ``logging`` handler shows
them too. `configure_logging` is a convenience for applications that want readable console
lines or JSON lines; the CLI uses `logging_to` for the span of one command.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Literal, TextIO

import structlog
from structlog.typing import EventDict, WrappedLogger

__all__ = [
    "LOGGER_NAME",
    "LogFormat",
    "configure_logging",
    "get_logger",
    "logging_to",
    "restored",
]

LOGGER_NAME = "amplifier_hooks"
LogFormat = Literal["console", "json"]


def _to_stdlib(logger: WrappedLogger, method: str, event_dict: EventDict) -> Any:
    """The arguments of the stdlib call: one readable message, the fields kept whole."""
    exc_info = event_dict.pop("exc_info", None)
    event = str(event_dict.pop("event", ""))
    fields = " ".join(f"{key}={value!r}" for key, value in event_dict.items())
    event_dict["event"] = event
    message = f"{event} {fields}" if fields else event
    kwargs: dict[str, Any] = {"extra": {"structlog": event_dict}}
    if exc_info:
        kwargs["exc_info"] = exc_info
    # "%s" keeps a message holding a literal % from being read as a format string.
    return ("%s", message), kwargs


_PROCESSORS: list[structlog.typing.Processor] = [
    # First, so a call below the logger's level costs no more than this check.
    structlog.stdlib.filter_by_level,
    structlog.contextvars.merge_contextvars,
    _to_stdlib,
]


class _BoundLogger(structlog.stdlib.BoundLogger):
    """structlog's stdlib logger, whose debug and info calls below the logger's level
    return at once: `filter_by_level` drops them too, but only after the call has built
    its event and raised and caught `DropEvent` (a server opening a session makes several
    such calls). The same check, so the same records."""

    def debug(self, event: str | None = None, *args: Any, **kw: Any) -> Any:
        if not self._logger.isEnabledFor(logging.DEBUG):
            return None
        return self._proxy_to_logger("debug", event, *args, **kw)

    def info(self, event: str | None = None, *args: Any, **kw: Any) -> Any:
        if not self._logger.isEnabledFor(logging.INFO):
            return None
        return self._proxy_to_logger("info", event, *args, **kw)


def get_logger(name: str = LOGGER_NAME) -> Any:
    """A structlog logger that writes through the stdlib logger ``name``."""
    return structlog.wrap_logger(
        logging.getLogger(name),
        processors=_PROCESSORS,
        wrapper_class=_BoundLogger,
        cache_logger_on_first_use=True,
    )


class _StructFormatter(logging.Formatter):
    """Renders a record with structlog's console or JSON renderer."""

    def __init__(self, fmt: LogFormat, colors: bool, tracebacks: bool = True) -> None:
        super().__init__()
        self.fmt = fmt
        self.tracebacks = tracebacks
        self.renderer: Any
        if fmt == "json":
            self.renderer = structlog.processors.JSONRenderer()
        else:
            # Plain tracebacks: rich ones with locals bury a hook failure under screens.
            self.renderer = structlog.dev.ConsoleRenderer(
                colors=colors, exception_formatter=structlog.dev.plain_traceback
            )

    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "structlog", None)
        event: dict[str, Any] = (
            dict(fields) if isinstance(fields, dict) else {"event": record.getMessage()}
        )
        event["level"] = record.levelname.lower()
        stamp = datetime.fromtimestamp(record.created, UTC)
        event["timestamp"] = stamp.isoformat(timespec="microseconds").replace("+00:00", "Z")
        if self.tracebacks and record.exc_info and record.exc_info[0] is not None:
            event["exc_info"] = record.exc_info
            if self.fmt == "json":
                event = dict(structlog.processors.dict_tracebacks(None, "", event))
        rendered: str = self.renderer(None, record.levelname.lower(), event)
        return rendered


def _handler(
    fmt: LogFormat | None, level: str | int, stream: TextIO | None, tracebacks: bool = True
) -> logging.Handler:
    out = stream if stream is not None else sys.stderr
    if fmt is None:
        fmt = "console" if out.isatty() else "json"
    if fmt not in ("console", "json"):
        raise ValueError(f"unknown log format {fmt!r}: expected 'console' or 'json'")
    numeric = logging.getLevelName(level.upper()) if isinstance(level, str) else level
    if not isinstance(numeric, int):
        raise ValueError(f"unknown log level {level!r}")
    handler = logging.StreamHandler(out)
    handler.setFormatter(_StructFormatter(fmt, colors=out.isatty(), tracebacks=tracebacks))
    handler.setLevel(numeric)
    return handler


_installed: logging.Handler | None = None


def configure_logging(
    fmt: LogFormat | None = None,
    level: str | int = "info",
    stream: TextIO | None = None,
    *,
    tracebacks: bool = True,
) -> None:
    """Show the library's logs: console lines for people, JSON lines for machines.

    Attaches one handler to the ``amplifier_hooks`` logger (replacing the one a previous
    call attached) and stops its records from reaching the root logger twice.
    ``fmt=None`` picks console output when ``stream`` is a terminal, JSON otherwise.
    ``tracebacks=False`` leaves a record's traceback out: its fields (a failed handler's
    ``error``: the exception class and message) still say what went wrong, on one line.
    """
    global _installed
    handler = _handler(fmt, level, stream, tracebacks)
    library = logging.getLogger(LOGGER_NAME)
    if _installed is not None:
        library.removeHandler(_installed)
    library.addHandler(handler)
    library.setLevel(handler.level)
    library.propagate = False
    _installed = handler


@contextmanager
def restored() -> Iterator[None]:
    """Put the library logger's handlers, level and propagation back after the block."""
    global _installed
    library = logging.getLogger(LOGGER_NAME)
    saved = (library.level, library.propagate, list(library.handlers), _installed)
    try:
        yield
    finally:
        library.level, library.propagate, library.handlers, _installed = saved


@contextmanager
def logging_to(
    stream: TextIO, fmt: LogFormat | None = None, level: str | int = "warning"
) -> Iterator[None]:
    """The library's logs on ``stream`` for the span of the block; then as they were."""
    with restored():
        configure_logging(fmt, level, stream)
        yield
