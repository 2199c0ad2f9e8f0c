"""Event subscriptions for hook modules: one handler on every event matching globs.

Event names become known in two steps: the standard names (plus whatever is already
contributed) at mount, and the complete list at session-ready, once every module has
contributed the custom events it emits on ``observability.events``. Registration is
idempotent per event, so the second pass only adds what the first could not see.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from amplifier_hooks import events
from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.logs import get_logger

if TYPE_CHECKING:
    from amplifier_hooks.modules.view import CoordinatorView

logger = get_logger()

_GLOB_CHARS = frozenset("*?[")
_PATTERN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-:*?[]!")


def is_glob(pattern: str) -> bool:
    """True if ``pattern`` uses glob syntax rather than naming one event."""
    return any(c in _GLOB_CHARS for c in pattern)


def validate_event_pattern(pattern: str) -> str:
    """Return ``pattern`` if it is an event name or an event glob, else raise ``ValueError``."""
    if not is_glob(pattern):
        return events.validate_event_name(pattern)
    bad = sorted(set(pattern) - _PATTERN_CHARS)
    if bad:
        raise ValueError(
            f"invalid event pattern {pattern!r}: unexpected characters {''.join(bad)!r} "
            "(event globs use lowercase names with * ? [...], e.g. 'tool:*')"
        )
    return pattern


async def known_events(coordinator: CoordinatorView) -> list[str]:
    """The coordinator's known events, or the standard names if asking it fails."""
    try:
        return [name for name in await coordinator.known_events() if isinstance(name, str)]
    except Exception as exc:
        logger.warning("known_events failed; using standard events", error=repr(exc))
    return list(events.STANDARD_EVENTS)


@functools.lru_cache(maxsize=4096)
def _wants(include: tuple[str, ...] | None, exclude: tuple[str, ...], event: str) -> bool:
    # Asked for each event at every session's mount, and by the event log at every
    # dispatch: the same few globs and names each time, for every session.
    if include is not None and not any(fnmatchcase(event, p) for p in include):
        return False
    return not any(fnmatchcase(event, p) for p in exclude)


class Subscriptions:
    """Keeps ``handler`` registered on every wanted event, each time with the same
    ``options``; `close` removes them all."""

    def __init__(
        self,
        hooks: Any,
        handler: Callable[[str, dict[str, Any]], Any],
        options: HookOptions,
        *,
        include: Sequence[str] | None,
        exclude: Sequence[str] = (),
    ) -> None:
        self._hooks = hooks
        self._handler = handler
        self._options = options
        self._include = tuple(include) if include is not None else None
        self._exclude = tuple(exclude)
        self._unregister: dict[str, Callable[[], None]] = {}

    @property
    def events(self) -> list[str]:
        """Events the handler is registered on, in registration order."""
        return list(self._unregister)

    def wants(self, event: str) -> bool:
        """Whether ``event`` passes the include globs and none of the exclude globs."""
        return _wants(self._include, self._exclude, event)

    def add(self, names: Iterable[str]) -> list[str]:
        """Register on each wanted name not registered yet; returns the names added."""
        added: list[str] = []
        for event in [*names, *self._literal_includes()]:
            if event in self._unregister or not self.wants(event):
                continue
            self._unregister[event] = self._hooks.add(event, self._handler, self._options)
            added.append(event)
        return added

    async def refresh(self, coordinator: Any) -> list[str]:
        """Register on every wanted event the coordinator knows of now."""
        return self.add(await known_events(coordinator))

    def close(self) -> None:
        """Unregister from every event (idempotent)."""
        undo = list(self._unregister.values())
        self._unregister.clear()
        for unregister in undo:
            unregister()

    def _literal_includes(self) -> list[str]:
        # A named (non-glob) event is registered even if nobody contributes it: the user
        # asked for it explicitly.
        return [p for p in self._include or () if not is_glob(p)]
