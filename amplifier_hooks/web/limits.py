"""How much a server takes from its clients, and how much it says about those it refuses.

Any local process can open connections to a loopback port without a token, so the limits
on connections hold before the token is looked at: a connection must send its request's
headers within ``header_timeout`` of opening (or of its last answer), a body must arrive
within ``body_timeout``, and past ``max_connections`` the oldest idle connection is
closed to make room. What an attacker can make happen is logged as one line per kind of
trouble per ``trouble_interval`` (after ``trouble_burst`` lines of that kind), so a
flood of refusals never becomes a flood of log lines.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from aiohttp import web

from amplifier_hooks.logs import get_logger

__all__ = ["DEFAULT_LIMITS", "TROUBLE", "Limits", "QuietLogs", "Trouble", "trouble_of"]

logger = get_logger()


@dataclass(frozen=True)
class Limits:
    """The limits of one server (``serve``, ``approve --web``)."""

    header_timeout: float = 15.0
    """Seconds a connection may stay open without a complete request's headers (from
    its opening, or from its last answer: the idle timeout of a kept-alive connection)."""
    body_timeout: float = 30.0
    """Seconds a request's body may take to arrive."""
    call_deadline: float = 600.0
    """Seconds one call may take, a person's answer included (Claude Code's own hook
    timeout); after it that call is denied with a reason, and the others go on."""
    max_values: int = 200_000
    """JSON values (keys, items, scalars) one hook input may hold; a larger one is blocked
    unread by the bundle (what a module does with an input grows with its values)."""
    max_connections: int = 512
    """Connections open at once; the oldest idle one is closed to make room (a call in
    progress is never closed for a newer one). Lowered to fit the open-files limit."""
    trouble_interval: float = 60.0
    """Seconds over which one kind of trouble is logged once (after the burst)."""
    trouble_burst: int = 1
    """Lines of one kind logged each interval before they are only counted."""
    refused_burst: int = 20
    """Refused calls (401, 403, 421) logged one by one each interval before they are
    only counted: a user whose agent is refused reads why, a flood is one line a minute."""

    def __post_init__(self) -> None:
        for name in ("header_timeout", "body_timeout", "call_deadline", "trouble_interval"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if self.max_connections < 1:
            raise ValueError("max_connections must be at least 1")


DEFAULT_LIMITS = Limits()


@dataclass
class _Kind:
    window_start: float
    logged: int = 0
    suppressed: int = 0


@dataclass
class Trouble:
    """Logs what went wrong with clients, rate-limited per kind (see the module)."""

    limits: Limits = DEFAULT_LIMITS
    clock: Callable[[], float] = time.monotonic
    _kinds: dict[str, _Kind] = field(default_factory=dict)

    def note(self, kind: str, burst: int | None = None, **fields: object) -> bool:
        """Log ``kind`` with ``fields`` unless this kind has had its ``burst`` lines
        (default: the limits') this interval; True if it was logged."""
        extra = self.allow(kind, burst)
        if extra is None:
            return False
        logger.warning(kind, **fields, **extra)
        return True

    def allow(self, kind: str, burst: int | None = None) -> dict[str, object] | None:
        """None if a line of ``kind`` is not to be logged now; else what it should add
        (how many were not logged before it, or that the next ones will not be)."""
        now = self.clock()
        entry = self._kinds.get(kind)
        extra: dict[str, object] = {}
        if entry is None or now - entry.window_start >= self.limits.trouble_interval:
            if entry is not None and entry.suppressed:
                extra["not_logged_before"] = entry.suppressed
            if len(self._kinds) >= _MAX_KINDS:
                self._kinds.clear()  # kinds are few; this only bounds a bug's damage
            entry = self._kinds[kind] = _Kind(now)
        most = self.limits.trouble_burst if burst is None else burst
        if entry.logged >= most:
            entry.suppressed += 1
            return None
        entry.logged += 1
        if entry.logged == most and most > 1:
            extra["further_lines_this_interval"] = "counted, not logged"
        return extra


_MAX_KINDS = 1000
_NOISY = ("aiohttp.server", "aiohttp.web", "aiohttp.internal", "asyncio")
"""The loggers a flood of bad clients would fill (a filter applies to its own logger's
records, not to its children's, so each is named)."""


class QuietLogs(logging.Filter):
    """A filter for the loggers of aiohttp and asyncio while a server runs: their lines
    about misbehaving clients (a bad request line, an accept failing for lack of files)
    go out at `Trouble`'s rate, by logger and message."""

    def __init__(self, trouble: Trouble) -> None:
        super().__init__()
        self.trouble = trouble

    def filter(self, record: logging.LogRecord) -> bool:
        extra = self.trouble.allow(f"{record.name}: {record.msg}")
        if extra is None:
            return False
        if extra:
            record.msg = f"{record.msg} ({', '.join(f'{k}={v}' for k, v in extra.items())})"
        return True

    @contextlib.contextmanager
    def installed(self, names: tuple[str, ...] = _NOISY) -> Iterator[None]:
        loggers = [logging.getLogger(name) for name in names]
        for each in loggers:
            each.addFilter(self)
        try:
            yield
        finally:
            for each in loggers:
                each.removeFilter(self)


TROUBLE = web.AppKey("trouble", Trouble)
"""A running server's `Trouble` (set by `amplifier_hooks.web.running`)."""


def trouble_of(request: web.Request) -> Trouble:
    """The `Trouble` of the server answering ``request`` (a fresh one for an app that is
    not run by `amplifier_hooks.web.running`, as in some tests)."""
    found = request.app.get(TROUBLE)
    return found if found is not None else _FALLBACK


_FALLBACK = Trouble()
