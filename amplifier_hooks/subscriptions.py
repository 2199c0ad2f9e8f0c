"""Event subscriptions for hook modules: one handler on every event matching globs.

Event names become known in two steps: the standard names (plus whatever is already
contributed) at mount, and the complete list at session-ready, once every module has
contributed the custom events it emits on ``observability.events``. Registration is
idempotent per event, so the second pass only adds what the first could not see.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable, Iterable, Sequence
from fnmatch import fnmatchcase
from typing import Any, Generic, TypeVar

import structlog

from amplifier_hooks import events
from amplifier_hooks.registration import HookOptions

logger = structlog.get_logger("amplifier_hooks")

_GLOB_CHARS = frozenset("*?[")
_PATTERN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-:*?[]!")

T = TypeVar("T")


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


async def known_events(coordinator: Any) -> list[str]:
    """The coordinator's known events, or the standard names if it cannot tell."""
    lookup = getattr(coordinator, "known_events", None)
    if callable(lookup):
        try:
            value = lookup()
            if isinstance(value, Awaitable):
                value = await value
            return [name for name in value if isinstance(name, str)]
        except Exception as exc:
            logger.warning("known_events failed; using standard events", error=repr(exc))
    return list(events.STANDARD_EVENTS)


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
        if self._include is not None and not any(fnmatchcase(event, p) for p in self._include):
            return False
        return not any(fnmatchcase(event, p) for p in self._exclude)

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


class Mounted(Generic[T]):
    """What a module mounted on each coordinator, for ``on_session_ready`` to find.

    Weak keys: a coordinator that is dropped without cleanup does not leak here.
    """

    def __init__(self) -> None:
        self._items: weakref.WeakKeyDictionary[Any, list[T]] = weakref.WeakKeyDictionary()
        # Coordinators that refuse weak references (slotted stand-ins) are kept by id
        # until their cleanup runs.
        self._strong: dict[int, list[T]] = {}

    def _slot(self, coordinator: Any, create: bool) -> list[T] | None:
        try:
            if create:
                return self._items.setdefault(coordinator, [])
            return self._items.get(coordinator)
        except TypeError:
            if create:
                return self._strong.setdefault(id(coordinator), [])
            return self._strong.get(id(coordinator))

    def add(self, coordinator: Any, item: T) -> None:
        slot = self._slot(coordinator, create=True)
        assert slot is not None
        slot.append(item)

    def discard(self, coordinator: Any, item: T) -> None:
        slot = self._slot(coordinator, create=False)
        if slot is not None and item in slot:
            slot.remove(item)
            if not slot:
                self._strong.pop(id(coordinator), None)

    def get(self, coordinator: Any) -> list[T]:
        return list(self._slot(coordinator, create=False) or ())
