"""``@hook``: mark functions as handlers without registering them anywhere.

Decorating has no side effect, so importing a module never changes a registry; the
registry takes every marked function of a module or object in one call
(`HookRegistry.register_all`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from amplifier_hooks.events import validate_event_name

F = TypeVar("F", bound=Callable[..., Any])

HOOK_SPECS_ATTR = "__amplifier_hooks__"


@dataclass(frozen=True)
class HookSpec:
    """The registration arguments that ``@hook`` attached to a function."""

    event: str
    priority: int = 0
    name: str | None = None
    timeout: float | None = None
    fail_closed: bool = False
    rate_limit: tuple[int, float] | None = None


def hook(
    event: str,
    priority: int = 0,
    name: str | None = None,
    timeout: float | None = None,
    fail_closed: bool = False,
    rate_limit: tuple[int, float] | None = None,
) -> Callable[[F], F]:
    """Mark a function as a handler for ``event``. Stack it to handle several events."""
    validate_event_name(event)  # fail at import time on a misspelt event, not silently later

    def mark(func: F) -> F:
        specs: tuple[HookSpec, ...] = getattr(func, HOOK_SPECS_ATTR, ())
        spec = HookSpec(event, priority, name, timeout, fail_closed, rate_limit)
        setattr(func, HOOK_SPECS_ATTR, (*specs, spec))
        return func

    return mark


def marked_handlers(source: object) -> Iterator[tuple[Callable[..., Any], HookSpec]]:
    """Every ``@hook``-marked callable of a module, class instance or class, with its specs,
    in definition order (module dicts and class dicts keep it)."""
    names = list(vars(source)) if hasattr(source, "__dict__") else []
    # Instances: include methods defined on the class (and its bases) too.
    for klass in type(source).__mro__ if not isinstance(source, type) else ():
        for attr in vars(klass):
            if attr not in names:
                names.append(attr)
    seen: set[int] = set()
    for attr in names:
        if attr.startswith("__"):
            continue
        try:
            stored = inspect.getattr_static(source, attr)
        except AttributeError:
            continue
        # Look at what is stored before reading it through its descriptor: reading a
        # property of an instance would run its code just to find it is not a hook.
        if not getattr(getattr(stored, "__func__", stored), HOOK_SPECS_ATTR, None):
            continue
        value = getattr(source, attr)
        specs = getattr(value, HOOK_SPECS_ATTR, None)
        if not specs or not callable(value):
            continue
        identity = id(getattr(value, "__func__", value))
        if identity in seen:
            continue
        seen.add(identity)
        for spec in specs:
            yield value, spec
