"""`Mounting`: one mount of a module, whose registrations are undone together.

A module needs a list of its unregister functions, a cleanup that walks it, and (when it
widens its event subscriptions at ``on_session_ready``) a process-wide table from
coordinator to what it mounted there. `Mounting` is the list and the cleanup; `Mounts` is
the table, so no module writes them again::

    _mounts = Mounts()

    async def mount(
        coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
    ) -> Callable[[], None]:
        settings = parse_config(config)
        with _mounts.start(coordinator, "ah-mine") as mounting:  # a failing mount undoes itself
            await mounting.subscribe(handle, name="mine", include=settings.events)
            mounting.register("session:start", on_start, name="mine:start")
        return mounting.cleanup

    async def on_session_ready(coordinator: CoordinatorView) -> None:
        await _mounts.refresh(coordinator)  # events other modules contributed since
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.engine.registrar import Registrar, Unregister
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules.subscriptions import Subscriptions

if TYPE_CHECKING:
    from amplifier_hooks.engine.calling import Handler
    from amplifier_hooks.modules.view import Contributor, CoordinatorView
    from amplifier_hooks.session.observers import Observer

logger = get_logger()


class Mounting(Registrar):
    """What one module registered on one coordinator; `cleanup` takes it all back.

    Every registration is labelled with ``owner`` (the module id) and remembered; `cleanup`
    undoes them newest first, each one even if another fails, and only once. Used as a
    context manager around the registrations of ``mount``, it cleans up when ``mount``
    fails half-way, so nothing of a rejected module stays registered.
    """

    def __init__(self, coordinator: CoordinatorView, owner: str) -> None:
        self.coordinator = coordinator
        self.owner = owner
        self._undo: list[Callable[[], None]] = []
        self._subscriptions: list[Subscriptions] = []
        self._closed = False
        self._on_close: Callable[[], None] | None = None

    @property
    def closed(self) -> bool:
        """True once `cleanup` ran."""
        return self._closed

    # -- registrations ---------------------------------------------------------------------

    def at_cleanup(self, undo: Callable[[], None]) -> Callable[[], None]:
        """Run ``undo`` (sync) at `cleanup`; returns it, for a module that undoes early."""
        self._check_open()
        self._undo.append(undo)
        return undo

    def _check_open(self) -> None:
        # Checked before registering, so nothing is registered that no cleanup would undo.
        if self._closed:
            raise RuntimeError(f"{self.owner}: this mounting was cleaned up")

    def add(self, event: str, handler: Handler, options: HookOptions) -> Unregister:
        """Register ``handler`` on the coordinator's hooks (``register`` spells the options as
        keywords); the owner defaults to this mount's."""
        self._check_open()
        if options.owner is None:
            options = options.replace(owner=self.owner)
        return self.at_cleanup(self.coordinator.hooks.add(event, handler, options))

    async def subscribe(
        self,
        handler: Handler,
        options: HookOptions,
        *,
        include: Sequence[str] | None = None,
        exclude: Sequence[str] = (),
    ) -> Subscriptions:
        """Register ``handler`` on every event the coordinator knows that matches the globs
        (``include`` None: every event), and on more at each `refresh`. ``options`` is the
        registration record; its owner defaults to this mount's."""
        self._check_open()
        if options.owner is None:
            options = options.replace(owner=self.owner)
        subscriptions = Subscriptions(
            self.coordinator.hooks, handler, options, include=include, exclude=exclude
        )
        self.at_cleanup(subscriptions.close)
        self._subscriptions.append(subscriptions)
        await subscriptions.refresh(self.coordinator)
        return subscriptions

    def contribute(
        self,
        channel: str,
        callback: Contributor,
        *,
        name: str | None = None,
        timeout: float | None = None,
    ) -> Unregister:
        """Contribute ``callback()`` to ``channel`` under ``name`` (default: the owner)."""
        self._check_open()
        return self.at_cleanup(
            self.coordinator.register_contributor(
                channel, name or self.owner, callback, timeout=timeout
            )
        )

    def offer(self, capability: str, value: Any) -> Unregister:
        """Offer ``value`` to the session's modules as ``capability``."""
        self._check_open()
        return self.at_cleanup(self.coordinator.register_capability(capability, value))

    def observe(self, callback: Observer) -> Unregister:
        """See the final outcome of every dispatch (see `Coordinator.add_observer`)."""
        self._check_open()
        return self.at_cleanup(self.coordinator.add_observer(callback))

    # -- session-ready and cleanup ---------------------------------------------------------

    async def refresh(self) -> list[str]:
        """Extend every subscription to events contributed since; returns those added."""
        added: list[str] = []
        for subscriptions in self._subscriptions:
            added += await subscriptions.refresh(self.coordinator)
        return added

    def cleanup(self) -> None:
        """Undo every registration, newest first; later calls do nothing."""
        if self._closed:
            return
        self._closed = True
        if self._on_close is not None:
            self._on_close()
        while self._undo:
            undo = self._undo.pop()
            try:
                undo()
            except Exception as exc:  # one bad undo must not keep the rest registered
                logger.error(
                    "module registration could not be undone",
                    module=self.owner,
                    error=describe_exception(exc),
                )

    def __enter__(self) -> Mounting:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if exc is not None:
            self.cleanup()


class Mounts:
    """A module's live subscriptions per coordinator, so ``on_session_ready(coordinator)`` can
    widen what ``mount(coordinator, ...)`` subscribed. One per module, at module level: the
    loader calls both functions with the same coordinator, and a module may be mounted on many.

    Coordinators are held weakly, and the table holds only the subscriptions (never a
    `Mounting`, whose undo functions lead back to the coordinator): a coordinator dropped
    without cleanup does not leak here.
    """

    def __init__(self) -> None:
        self._by_coordinator: weakref.WeakKeyDictionary[Any, list[list[Subscriptions]]] = (
            weakref.WeakKeyDictionary()
        )
        # Hosts that refuse weak references (slotted stand-ins) are kept by id until
        # their mounting is cleaned up.
        self._by_id: dict[int, list[list[Subscriptions]]] = {}

    def start(self, coordinator: CoordinatorView, owner: str) -> Mounting:
        """A new `Mounting` on ``coordinator`` whose subscriptions are listed here until its
        cleanup."""
        mounting = Mounting(coordinator, owner)
        subscriptions = mounting._subscriptions
        self._slot(coordinator, create=True).append(subscriptions)
        mounting._on_close = lambda: self._discard(coordinator, subscriptions)
        return mounting

    def count(self, coordinator: CoordinatorView) -> int:
        """How many live mountings ``coordinator`` has here."""
        return len(self._slot(coordinator, create=False))

    async def refresh(self, coordinator: CoordinatorView) -> list[str]:
        """Extend every live subscription on ``coordinator`` to the events it knows now; returns
        the events added."""
        added: list[str] = []
        for subscriptions in list(self._slot(coordinator, create=False)):
            for subscription in list(subscriptions):
                added += await subscription.refresh(coordinator)
        return added

    def _slot(self, coordinator: CoordinatorView, *, create: bool) -> list[list[Subscriptions]]:
        try:
            if create:
                return self._by_coordinator.setdefault(coordinator, [])
            return self._by_coordinator.get(coordinator, [])
        except TypeError:
            if create:
                return self._by_id.setdefault(id(coordinator), [])
            return self._by_id.get(id(coordinator), [])

    def _discard(self, coordinator: CoordinatorView, subscriptions: list[Subscriptions]) -> None:
        slot = self._slot(coordinator, create=False)
        for index, listed in enumerate(slot):
            if listed is subscriptions:  # by identity: two empty lists are equal
                del slot[index]
                break
        if not slot:
            self._by_id.pop(id(coordinator), None)
            with contextlib.suppress(TypeError):  # not weakly referenceable: kept by id
                self._by_coordinator.pop(coordinator, None)


__all__ = ["Mounting", "Mounts"]
