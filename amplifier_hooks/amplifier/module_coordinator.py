"""`ModuleCoordinator`: the coordinator a hook module's ``mount`` receives.

It is the real `Coordinator` seen through one module: hooks (a `ModuleHooks` view of the
module's `ScopedHooks`, which stays with the loader), contributors, capabilities, observers
and cleanups are tracked per module and undone when the module is unloaded. It offers
exactly the typed `amplifier_hooks.modules.CoordinatorView` (checked by mypy below) plus what the
reference's ``ModuleCoordinator`` answers for hook modules (mount points, injection limits,
shared attributes, contribution channels); nothing else of the coordinator leaks through.

It is also what the reference's kernel builds for a session, ``ModuleCoordinator(session)``
(`for_session`): then its registry has the reference's emit semantics
(`reference_hooks`), as an application written for the reference expects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from amplifier_hooks.amplifier.approvals import GateApprovalProvider
from amplifier_hooks.amplifier.reference_hooks import ReferenceHookRegistry
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.injection import ContextInjector
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules.module_hooks import ModuleHooks
from amplifier_hooks.modules.scoped import ScopedHooks
from amplifier_hooks.session.coordinator import Coordinator

if TYPE_CHECKING:
    from amplifier_hooks.engine.channels import Contributor
    from amplifier_hooks.modules.view import CoordinatorView
    from amplifier_hooks.session.observers import Observer

logger = get_logger()

Cleanup = Callable[[], Any]

APPROVAL_PROVIDER_CAPABILITY = "approval.register_provider"
"""The capability through which a reference-style approval module takes its provider."""

_OWN_ATTRIBUTES = frozenset({"coordinator", "hooks", "module_key", "_undo", "cleanups"})

SESSION_SCOPE = "session"
"""The owner of what is registered through a ``ModuleCoordinator(session)``."""

_UNSET: Any = object()


class ModuleCoordinator:
    """The ``coordinator`` a module's ``mount`` receives: the real `Coordinator`, except
    that hooks, contributors, capabilities and cleanups are tracked per module and undone
    when the module is unloaded. ``.coordinator`` is the real one.

    It is a `amplifier_hooks.modules.CoordinatorView`, and answers what the reference's
    ``ModuleCoordinator`` answers for a hook module: ``get("hooks")`` and the other mount
    points, ``mount_points``, ``session_id``, ``parent_id``, ``config``, capabilities,
    contributors and cleanups. An attribute a module sets on it
    (``coordinator.todo_state = ...``) is set on the real coordinator, so every module of the
    session sees it, and reads back through any module's view; the coordinator's own
    attributes cannot be replaced that way, nor read through the view.
    """

    def __init__(
        self,
        coordinator: Coordinator | Any = None,
        scope: ScopedHooks | None = None,
        *,
        session: Any = None,
    ) -> None:
        """The loader's ``ModuleCoordinator(coordinator, scope)``: one module's view of a
        session's coordinator. Or the reference's ``ModuleCoordinator(session)`` (also
        ``session=``): see `for_session`."""
        if scope is None:
            if session is None and not isinstance(coordinator, Coordinator):
                session = coordinator
            if session is None:
                raise TypeError("ModuleCoordinator takes (coordinator, scope) or (session)")
            coordinator, scope = for_session(session)
        elif not isinstance(scope, ScopedHooks) or session is not None:
            raise TypeError(
                "ModuleCoordinator(session) takes no other arguments here: approvals go "
                "through the coordinator's approval gate, messages through its message sink"
            )
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "coordinator", coordinator)
        # The module gets `hooks`, a view without the lifecycle; `_scope` (set here only, not
        # one of _OWN_ATTRIBUTES) is for `withdraw` (below) and the approval bridge.
        object.__setattr__(self, "_scope", scope)
        object.__setattr__(self, "hooks", ModuleHooks(scope))
        object.__setattr__(self, "module_key", scope.owner)
        object.__setattr__(self, "_undo", [])
        object.__setattr__(self, "cleanups", [])

    coordinator: Coordinator
    _session: Any
    _scope: ScopedHooks
    hooks: ModuleHooks
    module_key: str
    _undo: list[Callable[[], None]]
    cleanups: list[Cleanup]

    # -- session identity --------------------------------------------------------------------

    @property
    def session(self) -> Any:
        """The session given to ``ModuleCoordinator(session)``; None for a loader's view
        (this project has no session object: the coordinator is the session)."""
        return self._session

    @property
    def session_id(self) -> str:
        """The session, stamped on every event."""
        return self.coordinator.session_id

    @property
    def parent_id(self) -> str | None:
        """The session that spawned this one, if any."""
        return self.coordinator.parent_id

    @property
    def config(self) -> Mapping[str, Any]:
        """The session's mount plan (see `Coordinator.config`)."""
        return self.coordinator.config

    # -- the reference's mount points ------------------------------------------------------

    @property
    def mount_points(self) -> dict[str, Any]:
        """The coordinator's mount points, with ``hooks`` being this module's registry."""
        return {**self.coordinator.mount_points, "hooks": self.hooks}

    def get(self, mount_point: str, name: str | None = None) -> Any:
        """What is mounted at ``mount_point`` (``hooks``: this module's registry); see
        `Coordinator.get`."""
        if mount_point == "hooks":
            return self.hooks
        return self.coordinator.get(mount_point, name)

    @property
    def injection_budget_per_turn(self) -> int | None:
        """Tokens of injected context allowed per turn (None: unlimited)."""
        return self.coordinator.injector.budget_per_turn

    @property
    def injection_size_limit(self) -> int | None:
        """UTF-8 bytes allowed per injection (None: unlimited)."""
        return self.coordinator.injector.size_limit

    # -- per-module registrations ----------------------------------------------------------

    def register_contributor(
        self, channel: str, name: str, callback: Contributor, *, timeout: float | None = None
    ) -> Callable[[], None]:
        """See `Coordinator.register_contributor`; removed when the module unloads."""
        undo = self.coordinator.register_contributor(channel, name, callback, timeout=timeout)
        self._undo.append(undo)
        return undo

    def register_capability(self, name: str, value: Any) -> Callable[[], None]:
        """See `Coordinator.register_capability`; removed when the module unloads.

        A module that offers ``approval.register_provider`` (the reference's approval
        module does) is handed an adapter to this coordinator's approval gate at once,
        and its handlers stop being bounded by the registry's default timeout (the gate
        bounds each question) and fail closed: a question it cannot finish must deny.
        """
        undo = self.coordinator.register_capability(name, value)
        self._undo.append(undo)
        if name == APPROVAL_PROVIDER_CAPABILITY and callable(value):
            self._scope.make_approving()
            value(GateApprovalProvider(self.coordinator, source=self.module_key))
        return undo

    def get_capability(self, name: str, default: Any = None) -> Any:
        """What a module offers under ``name`` (any module of the session), or ``default``."""
        return self.coordinator.get_capability(name, default)

    @property
    def channels(self) -> dict[str, list[dict[str, Any]]]:
        """Channel -> its contributors as the reference lists them (``{"name", "callback"}``
        each, in registration order): every module's. A snapshot: register with
        `register_contributor`."""
        return {
            channel: [{"name": name, "callback": callback} for name, callback in entries]
            for channel, entries in self.coordinator.channels.callbacks().items()
        }

    async def collect_contributions(self, channel: str) -> list[Any]:
        """See `Coordinator.collect_contributions` (every module's contributors)."""
        return await self.coordinator.collect_contributions(channel)

    async def known_events(self) -> list[str]:
        """See `Coordinator.known_events`."""
        return await self.coordinator.known_events()

    def add_observer(
        self, callback: Observer, *, timeout: float | None = _UNSET
    ) -> Callable[[], None]:
        """See `Coordinator.add_observer`; removed when the module unloads."""
        if timeout is _UNSET:
            undo = self.coordinator.add_observer(callback)
        else:
            undo = self.coordinator.add_observer(callback, timeout=timeout)
        self._undo.append(undo)
        return undo

    def dispatching(self) -> str | None:
        """See `Coordinator.dispatching`."""
        return self.coordinator.dispatching()

    def register_cleanup(self, fn: Cleanup) -> None:
        """Run ``fn`` (sync or async) when this module unloads, newest first."""
        if not callable(fn):
            raise TypeError(f"cleanup must be callable, got {type(fn).__name__}")
        self.cleanups.append(fn)

    # -- attributes shared by the session's modules (the reference's compat) ----------------

    # Why a __getattr__ here, when `ModuleHooks` has none: the reference's coordinator is a
    # plain object with a __dict__ (amplifier-core 2.0.2 accepts any attribute), and
    # published modules share state through it: Amplifier's tool-todo sets
    # ``coordinator.todo_state`` and hooks-todo-reminder reads it. The names are chosen by
    # modules at run time, so they cannot be declared; only names a module set are read back
    # (`Coordinator.shared`), never the coordinator's own members.
    if not TYPE_CHECKING:  # hidden from mypy: a __getattr__ would satisfy any protocol member,
        # and the `CoordinatorView` check at the end of this file must be a real one.
        def __getattr__(self, name: str) -> Any:
            # Only what a module set with ``coordinator.<name> = value`` reads through; the
            # coordinator's own attributes and methods are not forwarded (see the class doc).
            if not name.startswith("_"):
                shared = self.coordinator.shared
                if name in shared:
                    return shared[name]
            raise AttributeError(
                f"{type(self).__name__!r} has no attribute {name!r} (a module sees the "
                "amplifier_hooks.modules.CoordinatorView surface and attributes shared by the "
                "session's modules)"
            )

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _OWN_ATTRIBUTES:
            object.__setattr__(self, name, value)
            return
        if hasattr(type(self), name):
            raise AttributeError(f"{name!r} belongs to the coordinator; a module cannot replace it")
        self.coordinator.set_shared(name, value)

    def __delattr__(self, name: str) -> None:
        self.coordinator.delete_shared(name)


def for_session(session: Any) -> tuple[Coordinator, ScopedHooks]:
    """What ``ModuleCoordinator(session)`` stands on: a fresh `Coordinator` with the
    session's ``session_id``, ``parent_id`` and ``config`` (the mount plan; its
    ``session.injection_budget_per_turn`` and ``injection_size_limit`` are the injection
    limits, unlimited when absent, as in the reference), whose registry has the reference's
    semantics, and a live scope for what is registered through it."""
    session_id = getattr(session, "session_id", None)
    if not isinstance(session_id, str) or not session_id:
        raise TypeError(f"a session needs a non-empty str session_id, got {session_id!r}")
    config = getattr(session, "config", None)
    config = dict(config) if isinstance(config, Mapping) else {}
    settings = config.get("session")
    settings = settings if isinstance(settings, Mapping) else {}
    coordinator = Coordinator(
        session_id=session_id,
        parent_id=getattr(session, "parent_id", None),
        config=config,
        registry=ReferenceHookRegistry(),
        injector=ContextInjector(
            budget_per_turn=settings.get("injection_budget_per_turn"),
            size_limit=settings.get("injection_size_limit"),
        ),
    )
    scope = ScopedHooks(coordinator.hooks, SESSION_SCOPE)
    scope.activate()
    return coordinator, scope


def withdraw(view: ModuleCoordinator) -> None:
    """Undo what the module registered through ``view``: handlers (for good: its registry
    is closed), contributors, capabilities, observers. The loader's step, a function rather
    than a method so the module cannot call it on the coordinator it holds."""
    view._scope.close()
    while view._undo:
        undo = view._undo.pop()
        try:
            undo()
        except Exception as exc:  # one bad undo must not keep the rest in place
            logger.error(
                "hook module registration could not be undone",
                module=view.module_key,
                error=describe_exception(exc),
            )


if TYPE_CHECKING:

    def _both_are_views(
        view: ModuleCoordinator, coordinator: Coordinator
    ) -> tuple[CoordinatorView, CoordinatorView]:
        """For mypy only: a `CoordinatorView` member that either lacks is a type error here."""
        return view, coordinator


__all__ = ["APPROVAL_PROVIDER_CAPABILITY", "ModuleCoordinator", "for_session", "withdraw"]
