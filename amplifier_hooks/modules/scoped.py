"""What a module registers while mounted: a registry scoped to the module.

The module registers through a `amplifier_hooks.modules.module_hooks.ModuleHooks` view;
the loader keeps this object, and with it the lifecycle.

The scoped registry records every registration, applies the bundle's per-handler
overrides by handler name, labels each handler with the module as owner, and can take
them all out again. Registrations made while a bundle is being mounted are *staged*: they
reach the real registry only when the whole bundle goes live, in one step without an
``await`` (see `activate`), so a dispatch never sees half of a bundle.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Mapping
from types import CoroutineType
from typing import Any, Literal, Protocol

from amplifier_hooks.engine.calling import Handler, HandlerEntry
from amplifier_hooks.engine.offload import INLINE_ATTR, inline
from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.engine.registrar import Unregister
from amplifier_hooks.engine.registry import HookRegistry, check_registration
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.events import validate_event_name
from amplifier_hooks.logs import get_logger


class HandlerOverride(Protocol):
    """What a bundle says about one of a module's handlers (by name), read-only: the
    bundle's record (`amplifier_hooks.bundles.format.HandlerOverride`) is one. Stated here
    because the bundle loader is built on this module, never the other way round."""

    @property
    def enabled(self) -> bool | None: ...
    @property
    def priority(self) -> int | None: ...
    @property
    def timeout(self) -> float | None: ...
    @property
    def fail_closed(self) -> bool | None: ...


logger = get_logger()

State = Literal["staged", "active", "inactive", "closed"]


def _noop() -> None:
    return None


_Resolved = tuple[HookOptions | None, bool, bool]


class ScopedHooks:
    """One module's registrations, as the loader controls them.

    The module itself never holds this object: it gets a `ModuleHooks` view
    (``coordinator.hooks``), the registry API whose registrations come here (`add`) and
    whose emits, listings and default fields act on the real `registry`, as they do in
    the reference; nothing of the lifecycle (`activate`, `deactivate`, `close`,
    `make_approving`, `state`, ...), which is the loader's and the compatibility layer's.
    Registrations are this module's own (recorded, overridden by the bundle, undone at
    unload).
    """

    def __init__(
        self,
        registry: HookRegistry,
        owner: str,
        overrides: Mapping[str, HandlerOverride] | None = None,
    ) -> None:
        self._registry = registry
        self.owner = owner
        self._overrides = dict(overrides or {})
        self._registrations: list[_Registration] = []
        self._resolved: dict[tuple[HookOptions, str], _Resolved] = {}
        # The handler and options of the last registration, with its name and resolved
        # options: a subscription registers the same pair on every event it wants, and
        # only the event is new (`add`).
        self._last: tuple[Handler, HookOptions, str, _Resolved] | None = None
        self._state: State = "staged"
        # Calls of this module's handlers still running: an unload waits for them, so a
        # dispatch that started on the old set never runs into an already cleaned-up module.
        self._running = 0
        self._idle: asyncio.Event | None = None
        self.names_seen: set[str] = set()
        """Every handler name the module tried to register (overridden ones included)."""
        self.approving = False
        """True once the module asks questions inside its handlers (see `make_approving`)."""

    @property
    def registry(self) -> HookRegistry:
        """The session's registry, where emits, listings and default fields act."""
        return self._registry

    # -- registering (through the module's `ModuleHooks` view) ---------------------------

    def add(self, event: str, handler: Handler, options: HookOptions) -> Unregister:
        """Register like `HookRegistry.add` (a module calls it through its `ModuleHooks`:
        ``register``, ``on``, ``add``, ``register_all``); the bundle's override for this
        handler name (if any) replaces priority, timeout and fail_closed, or keeps the
        handler out (``enabled: false``). The owner is always the module's key."""
        if self._state == "closed":
            raise RuntimeError(f"hook module {self.owner!r} is unloaded; it cannot register")
        # Checked now, so a bad call fails inside the module's mount, never later when
        # the bundle goes live.
        last = self._last
        if last is not None and last[0] is handler and last[1] is options:
            # The same handler and options as the registration before (a subscription's
            # next event): they were checked, named and resolved then (the options are
            # frozen); the event is checked now.
            validate_event_name(event)
            handler_name, resolved = last[2], last[3]
        else:
            check_registration(event, handler, options)
            handler_name = options.name_for(handler)
            self.names_seen.add(handler_name)
            known = self._resolved.get((options, handler_name))
            if known is None:
                # One handler registered with the same options on several events: the
                # bundle's override is applied to them once per scope.
                known = self._resolved[(options, handler_name)] = self._resolve(
                    options, handler_name
                )
            resolved = known
            self._last = (handler, options, handler_name, resolved)
        resolved_options, timeout_fixed, fail_closed_fixed = resolved
        if resolved_options is None:
            logger.debug("handler disabled by bundle", module=self.owner, handler=handler_name)
            return _noop
        registration = _Registration(
            self, event, handler, resolved_options, timeout_fixed, fail_closed_fixed
        )
        if self.approving:
            self._approve(registration)
        self._registrations.append(registration)
        if self._state == "active":
            self._go_live(registration)
        return registration.withdraw

    def _resolve(self, options: HookOptions, handler_name: str) -> _Resolved:
        """``options`` as registered here: named, owned by the module, with the bundle's
        override for ``handler_name`` applied (None for the options when it disables
        the handler); and whether the override fixed the timeout and fail_closed."""
        options = options.replace(name=handler_name, owner=self.owner)
        override = self._overrides.get(handler_name)
        timeout_fixed = fail_closed_fixed = False
        if override is not None:
            if override.enabled is False:
                return None, False, False
            changes: dict[str, Any] = {}
            if override.priority is not None:
                changes["priority"] = override.priority
            if override.timeout is not None:
                changes["timeout"], timeout_fixed = override.timeout, True
            if override.fail_closed is not None:
                changes["fail_closed"], fail_closed_fixed = override.fail_closed, True
            if changes:
                options = options.replace(**changes)
        return options, timeout_fixed, fail_closed_fixed

    def make_approving(self) -> None:
        """Mark the module as one that waits for approvals inside its handlers (the
        reference's approval module does): its handlers, present and future, get no
        registry timeout (the gate bounds every question by its own deadline, so a
        default 30 s cut would only turn a pending question into a silent continue) and
        fail closed. What the bundle set explicitly for a handler is kept."""
        self.approving = True
        for registration in self._registrations:
            if registration.withdrawn:
                continue
            self._approve(registration)
            if registration._live is not None:  # already live: re-register with the new terms
                self._take_out(registration)
                self._go_live(registration)

    @staticmethod
    def _approve(registration: _Registration) -> None:
        options = registration.options
        if not registration.timeout_fixed:
            options = options.replace(timeout=0)  # none: see make_approving
        if not registration.fail_closed_fixed:
            options = options.replace(fail_closed=True)
        registration.options = options

    # -- lifecycle (used by the loader) ----------------------------------------------------

    @property
    def state(self) -> State:
        """staged (mounting), active (live), inactive (swapped out) or closed."""
        return self._state

    def registered(self) -> list[tuple[str, str]]:
        """``(event, handler name)`` of every registration still wanted."""
        return [(r.event, r.options.name or "") for r in self._registrations if not r.withdrawn]

    def activate(self) -> None:
        """Put every wanted registration into the real registry (all or nothing)."""
        if self._state == "closed":
            raise RuntimeError(f"hook module {self.owner!r} is unloaded")
        done: list[_Registration] = []
        placed: dict[int, Handler] = {}  # per handler (id): a subscription's are one
        try:
            for registration in self._registrations:
                if not registration.withdrawn and registration._live is None:
                    self._go_live(registration, placed)
                    done.append(registration)
        except BaseException:
            for registration in done:
                self._take_out(registration)
            raise
        self._state = "active"

    def deactivate(self) -> None:
        """Take every registration out of the real registry (they can be re-activated)."""
        for registration in self._registrations:
            self._take_out(registration)
        if self._state != "closed":
            self._state = "inactive"

    def close(self) -> None:
        """Take everything out for good; later registrations raise."""
        self.deactivate()
        self._state = "closed"

    @property
    def running(self) -> int:
        """How many calls of this module's handlers are in progress."""
        return self._running

    async def idle(self) -> None:
        """Return once none of this module's handlers is running."""
        while self._running:
            if self._idle is None:
                self._idle = asyncio.Event()
            self._idle.clear()
            await self._idle.wait()

    async def _finish(self, pending: Awaitable[Any]) -> Any:
        try:
            return await pending
        finally:
            self._release()

    def _release(self) -> None:
        self._running -= 1
        if not self._running and self._idle is not None:
            self._idle.set()

    def _go_live(
        self, registration: _Registration, placed: dict[int, Handler] | None = None
    ) -> None:
        registry = self._registry
        handler = registration.handler
        if placed is None:
            registration.placed = registry.placed(handler)
        else:
            # Alive for one `activate`, while every registration (and so its handler) is
            # held: an id is not reused meanwhile.
            known = placed.get(id(handler))
            if known is None:
                known = placed[id(handler)] = registry.placed(handler)
            registration.placed = known
        if type(registry).add is HookRegistry.add:
            # Checked in `add` already, named there, and placed (a `_Registration` is
            # called inline): not checked again for each of a session's handlers, and
            # taken out by its entry, with no unregister function kept for it.
            live: Unregister | HandlerEntry = registry.add_checked(
                registration.event, registration, registration.options
            )
        else:  # a registry that registers its own way
            live = registry.add(registration.event, registration, registration.options)
        registration._live = live

    @staticmethod
    def _take_out(registration: _Registration) -> None:
        registration._take_out()


class _Registration:
    """One registration of a module's handler, and what the registry calls for it once
    it is live: the handler, counted while it runs (until its awaitable finishes, if any).

    One small object per registration (slots, no closures), since every session holds
    one for each of its handlers; `withdraw` is the module's unregister. Kept cheap on the
    common path: a handler that returns without an awaitable costs an increment and a
    decrement.
    """

    # What leads to the loader's controls (the scope, the registry's table) is private:
    # the module holds `withdraw`, bound to this object.
    __slots__ = (
        "_scope",
        "event",
        "handler",
        "options",
        "placed",
        "_live",
        "withdrawn",
        "timeout_fixed",
        "fail_closed_fixed",
    )

    def __init__(
        self,
        scope: ScopedHooks,
        event: str,
        handler: Handler,
        options: HookOptions,
        timeout_fixed: bool,
        fail_closed_fixed: bool,
    ) -> None:
        self._scope = scope
        self.event = event
        self.handler = handler
        self.options = options
        self.placed: Handler = handler
        """The handler as the registry calls it (`HookRegistry.placed`), set on going live."""
        self._live: Unregister | HandlerEntry | None = None
        """While live: the registry's entry (`HookRegistry.add_checked`), or the
        unregister of a registry that registers its own way."""
        self.withdrawn = False
        self.timeout_fixed = timeout_fixed
        """The bundle set this handler's timeout (`make_approving` leaves it alone)."""
        self.fail_closed_fixed = fail_closed_fixed
        """The bundle set this handler's fail_closed (`make_approving` leaves it alone)."""

    def withdraw(self) -> None:
        """Unregister for good (what `ScopedHooks.add` returns to the module)."""
        self.withdrawn = True
        self._take_out()

    def _take_out(self) -> None:
        live = self._live
        if live is None:
            return
        if isinstance(live, HandlerEntry):
            self._scope.registry.discard(self.event, live)
        else:
            live()
        self._live = None

    @inline  # the registry has placed ``handler`` already (`ScopedHooks._go_live`)
    def __call__(self, event: str, data: dict[str, Any]) -> Any:
        scope = self._scope
        scope._running += 1
        try:
            value = self.placed(event, data)
        except BaseException:
            scope._release()
            raise
        if type(value) is CoroutineType or (
            value is not None and type(value) is not HookResult and inspect.isawaitable(value)
        ):
            return scope._finish(value)
        scope._release()
        return value


# Marked on the class too, so the registry's check (`offload.is_plain`) finds it on the
# object at once rather than after asking whether it is a coroutine function.
setattr(_Registration, INLINE_ATTR, True)


async def call_maybe_async(fn: Callable[..., Any], *args: Any) -> Any:
    """Call ``fn`` and await its result when it is awaitable."""
    result = fn(*args)
    if inspect.isawaitable(result):
        result = await result
    return result


__all__ = ["ScopedHooks", "call_maybe_async"]
