"""One place to configure structlog for programs built on amplifier-hooks.

The library only *uses* structlog (``structlog.get_logger("amplifier_hooks")``); importing
it configures nothing. Applications call `configure_logging` once, at start-up.
"""

from __future__ import annotations

import logging
import sys
from typing import Literal, TextIO

import structlog

LogFormat = Literal["console", "json"]


def configure_logging(
    fmt: LogFormat | None = None,
    level: str | int = "info",
    stream: TextIO | None = None,
) -> None:
    """Configure structlog: readable console lines for people, JSON lines for machines.

    ``fmt=None`` picks console output when ``stream`` is a terminal, JSON otherwise.
    """
    out = stream if stream is not None else sys.stderr
    if fmt is None:
        fmt = "console" if out.isatty() else "json"
    numeric = logging.getLevelName(level.upper()) if isinstance(level, str) else level
    if not isinstance(numeric, int):
        raise ValueError(f"unknown log level {level!r}")
    renderer: structlog.typing.Processor
    if fmt == "json":
        renderer = structlog.processors.JSONRenderer()
    elif fmt == "console":
        # Plain tracebacks: rich ones with locals bury a hook failure under screens of detail.
        renderer = structlog.dev.ConsoleRenderer(
            colors=out.isatty(), exception_formatter=structlog.dev.plain_traceback
        )
    else:
        raise ValueError(f"unknown log format {fmt!r}: expected 'console' or 'json'")
    processors: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if fmt == "json":
        processors.append(structlog.processors.dict_tracebacks)
    processors.append(renderer)
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=out),
        cache_logger_on_first_use=False,
    )
