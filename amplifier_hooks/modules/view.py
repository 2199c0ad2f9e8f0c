"""`CoordinatorView`: what a hook module's ``mount(coordinator, config)`` receives, named and typed.

A module types its ``mount`` against `CoordinatorView` and mypy checks every use. Both the real
`Coordinator` (a module mounted by hand, in its own tests) and the per-module view the
bundle loader hands out (registrations tracked and undone when the module unloads)
satisfy it. Anything not named here is not part of a module's contract: a module that needs
more asks for a capability (`CoordinatorView.get_capability`) instead of probing the coordinator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from amplifier_hooks.engine.registrar import Registrar, Unregister

if TYPE_CHECKING:
    from amplifier_hooks.engine.resolution import Resolution
    from amplifier_hooks.session.observers import Observer

Cleanup = Callable[[], Any]
"""Run when the module unloads; may return an awaitable."""

Contributor = Callable[[], Any]
"""A channel callback: no arguments; a value, an awaitable, or None (dropped)."""


class HooksView(Registrar, Protocol):
    """The hook registry a module registers on (``coordinator.hooks``).

    Registrations (`add`, and `register`, `on`, `register_all` of `Registrar`) return an
    `Unregister`; the loader's view also undoes them when the module unloads, so a cleanup
    that forgets one leaks nothing.
    """

    async def emit(self, event: str, data: Mapping[str, Any] | None = None) -> Resolution:
        """Run every module's handlers of ``event`` (a module's own events, say)."""
        ...

    async def emit_and_collect(
        self, event: str, data: Mapping[str, Any] | None = None, timeout: float = 1.0
    ) -> list[Any]:
        """Every handler's non-None ``result.data`` (see `HookRegistry.emit_and_collect`)."""
        ...

    def list_handlers(self, event: str | None = None) -> dict[str, list[str]]:
        """Handler names per event, in the order they run."""
        ...


class CoordinatorView(Protocol):
    """What a module may use of the coordinator it is mounted on."""

    @property
    def hooks(self) -> HooksView:
        """The registry to register handlers on."""
        ...

    @property
    def session_id(self) -> str:
        """The session, stamped on every event."""
        ...

    @property
    def parent_id(self) -> str | None:
        """The session that spawned this one, if any."""
        ...

    @property
    def config(self) -> Mapping[str, Any]:
        """The session's mount plan (``session``, ``hooks`` and other sections)."""
        ...

    def register_contributor(
        self, channel: str, name: str, callback: Contributor, *, timeout: float | None = None
    ) -> Unregister:
        """Answer ``collect_contributions(channel)`` with ``callback()``."""
        ...

    async def collect_contributions(self, channel: str) -> list[Any]:
        """What every contributor of ``channel`` returns, in registration order."""
        ...

    async def known_events(self) -> list[str]:
        """Standard event names plus those contributed on ``observability.events``."""
        ...

    def register_capability(self, name: str, value: Any) -> Unregister:
        """Offer ``value`` to the session's other modules under ``name``."""
        ...

    def get_capability(self, name: str, default: Any = None) -> Any:
        """What another module offers under ``name``, or ``default``."""
        ...

    def register_cleanup(self, fn: Cleanup) -> None:
        """Run ``fn`` (sync or async) when the module unloads, newest first."""
        ...

    def add_observer(self, callback: Observer, *, timeout: float | None = ...) -> Unregister:
        """Call ``callback(event, outcome)`` with the final outcome of every dispatch."""
        ...

    def dispatching(self) -> str | None:
        """The event a dispatch is running handlers for in this context, else None."""
        ...


__all__ = ["Cleanup", "Contributor", "CoordinatorView", "HooksView"]
