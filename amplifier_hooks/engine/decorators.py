"""``@hook``: mark functions as handlers without registering them anywhere.

Decorating has no side effect, so importing a module never changes a registry; the
registry takes every marked function of a module or object in one call
(`HookRegistry.register_all`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from amplifier_hooks.engine.options import HookOptions, RateLimit
from amplifier_hooks.events import validate_event_name

F = TypeVar("F", bound=Callable[..., Any])

HOOK_MARKS_ATTR = "__amplifier_hooks__"
"""Where ``@hook`` keeps its marks: a tuple of ``(event, HookOptions)``."""


def hook(
    event: str,
    priority: int = 0,
    name: str | None = None,
    timeout: float | None = None,
    fail_closed: bool = False,
    rate_limit: RateLimit | None = None,
) -> Callable[[F], F]:
    """Mark a function as a handler for ``event``. Stack it to handle several events.

    A misspelt event or a bad option fails here, when the module is imported, not
    silently later.
    """
    validate_event_name(event)
    options = HookOptions(
        priority=priority,
        name=name,
        timeout=timeout,
        fail_closed=fail_closed,
        rate_limit=rate_limit,
    )

    def mark(func: F) -> F:
        marks: tuple[tuple[str, HookOptions], ...] = getattr(func, HOOK_MARKS_ATTR, ())
        setattr(func, HOOK_MARKS_ATTR, (*marks, (event, options)))
        return func

    return mark


def marked_handlers(source: object) -> Iterator[tuple[Callable[..., Any], str, HookOptions]]:
    """Every ``@hook``-marked callable of a module, class instance or class, with the event
    and options of each mark, in definition order (module dicts and class dicts keep it)."""
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
        if not getattr(getattr(stored, "__func__", stored), HOOK_MARKS_ATTR, None):
            continue
        value = getattr(source, attr)
        marks = getattr(value, HOOK_MARKS_ATTR, None)
        if not marks or not callable(value):
            continue
        identity = id(getattr(value, "__func__", value))
        if identity in seen:
            continue
        seen.add(identity)
        for event, options in marks:
            yield value, event, options
