"""`HookOptions`: how one handler is registered, as one record.

Priority, name, timeout, fail_closed, rate limit and owner travel together from wherever a
registration is written down (``register``'s arguments, ``@hook``, a module's event
subscriptions, a bundle's per-handler overrides) to the registry and back out to listings.
Building them into one record, checked once when it is made, means no copy of the list
can drift from another, and a bad value fails where it was written.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

__all__ = ["HookOptions", "RateLimit", "at_least_one", "positive_seconds", "resolve_timeout"]

RateLimit = tuple[int, float]
"""``(max_calls, period_seconds)``."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class HookOptions:
    """The options of one registration (in the spirit of pluggy's ``HookimplOpts``).

    Built by keyword only (``HookOptions(priority=5, name="guard")``): six values in a
    row are too easy to misplace. `Registrar.register` spells the same as arguments.

    - ``priority``: lower runs first; ties run in registration order.
    - ``name``: defaults to the handler's ``__name__`` (see `name_for`).
    - ``timeout``: seconds; ``None`` takes the event's or the registry's default, ``0`` or
      ``math.inf`` means none.
    - ``fail_closed``: a failure of this handler is a deny instead of a continue.
    - ``rate_limit``: ``(max_calls, period_seconds)``; the wait counts against the timeout.
    - ``owner``: who registered the handler (a module id), for listings and unloading.
    """

    priority: int = 0
    name: str | None = None
    timeout: float | None = None
    fail_closed: bool = False
    rate_limit: RateLimit | None = None
    owner: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.priority, bool) or not isinstance(self.priority, int):
            raise TypeError(f"priority must be an int, got {self.priority!r}")
        if self.name is not None and not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {self.name!r}")
        if self.timeout is not None:
            resolve_timeout(self.timeout)  # raises for a bad value
        if not isinstance(self.fail_closed, bool):
            raise TypeError(f"fail_closed must be True or False, got {self.fail_closed!r}")
        if self.rate_limit is not None:
            object.__setattr__(self, "rate_limit", _checked_rate_limit(self.rate_limit))
        if self.owner is not None and not isinstance(self.owner, str):
            raise TypeError(f"owner must be a string, got {self.owner!r}")

    def replace(self, **changes: Any) -> HookOptions:
        """A copy with ``changes`` applied (checked like a new record)."""
        # Spelt out rather than `dataclasses.replace`, which looks the fields up again on
        # every call: every registration of every session makes one or two copies.
        unknown = changes.keys() - _FIELDS
        if unknown:
            raise TypeError(f"HookOptions has no field {sorted(unknown)[0]!r}")
        return HookOptions(
            priority=changes.get("priority", self.priority),
            name=changes.get("name", self.name),
            timeout=changes.get("timeout", self.timeout),
            fail_closed=changes.get("fail_closed", self.fail_closed),
            rate_limit=changes.get("rate_limit", self.rate_limit),
            owner=changes.get("owner", self.owner),
        )

    def name_for(self, handler: object) -> str:
        """The registration's name: ``name`` if given, else the handler's ``__name__``."""
        return self.name or getattr(handler, "__name__", None) or type(handler).__name__


_FIELDS = frozenset(field.name for field in dataclasses.fields(HookOptions))


def resolve_timeout(value: float | None) -> float | None:
    """Normalise a timeout setting: 0 or infinity mean "no timeout" (None)."""
    if value is None or value == 0 or value == math.inf:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"timeout must be a positive number of seconds, 0 or inf; got {value!r}")
    return float(value)


def at_least_one(value: int, name: str) -> int:
    """``value`` of the setting ``name`` (a depth, a concurrency), which must be 1 or more."""
    if value < 1:
        raise ValueError(f"{name} must be at least 1")
    return value


def positive_seconds(value: float, name: str) -> float:
    """``value`` of the duration ``name`` (a window, an interval), which must be more than
    0 seconds."""
    if not value > 0:
        raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
    return value


def _checked_rate_limit(limit: Any) -> RateLimit:
    calls: Any
    period: Any
    try:
        calls, period = limit
        valid = int(calls) == calls and calls >= 1 and period > 0
    except (TypeError, ValueError):
        valid = False
    if not valid:
        raise ValueError(f"rate_limit must be (max_calls >= 1, period_seconds > 0), got {limit!r}")
    return (int(calls), float(period))
