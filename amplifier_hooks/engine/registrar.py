"""`Registrar`: the one place the ``register(...)`` keyword signature is written.

Every object a handler can be registered on (the `HookRegistry`, the view a mounted
module holds, a module's `Mounting`, the `CoordinatorView` protocol's ``hooks``) takes a
registration as one `HookOptions` record through its ``add(event, handler, options)``. They inherit
``register`` and ``register_all`` from here, so the keyword spelling of CONTRACT §2
exists once and each class only says what ``add`` does with the record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from amplifier_hooks.engine.decorators import marked_handlers
from amplifier_hooks.engine.options import HookOptions, RateLimit

if TYPE_CHECKING:
    from amplifier_hooks.engine.calling import Handler

__all__ = ["Registrar", "Unregister"]

Unregister = Callable[[], None]
"""Takes back one registration; calling it again does nothing."""


class Registrar(Protocol):
    """Registers handlers; subclasses define `add`, the rest is spelled here once."""

    __slots__ = ()

    def add(self, event: str, handler: Handler, options: HookOptions) -> Unregister:
        """Register ``handler`` for ``event`` with its options as one record; returns a
        function that unregisters it."""
        ...

    def register(
        self,
        event: str,
        handler: Handler,
        priority: int = 0,
        name: str | None = None,
        *,
        timeout: float | None = None,
        fail_closed: bool = False,
        rate_limit: RateLimit | None = None,
        owner: str | None = None,
    ) -> Unregister:
        """Register ``handler`` for ``event`` and return a function that unregisters it.

        Lower ``priority`` runs first; ties run in registration order. ``timeout=None``
        takes the event's or the registry's default; ``0`` or ``math.inf`` means none.
        ``fail_closed=True`` turns this handler's failures into a deny. ``rate_limit`` is
        ``(max_calls, period_seconds)``. ``owner`` labels who registered it (a module id).
        The same as ``add(event, handler, HookOptions(...))``.
        """
        options = HookOptions(
            priority=priority,
            name=name,
            timeout=timeout,
            fail_closed=fail_closed,
            rate_limit=rate_limit,
            owner=owner,
        )
        return self.add(event, handler, options)

    def register_all(self, source: object, *, owner: str | None = None) -> Unregister:
        """Register every ``@hook``-marked function of a module, class or object; returns
        one function that unregisters all of them."""
        undo = [
            self.add(event, func, options if owner is None else options.replace(owner=owner))
            for func, event, options in marked_handlers(source)
        ]

        def unregister_all() -> None:
            for unregister in undo:
                unregister()

        return unregister_all
