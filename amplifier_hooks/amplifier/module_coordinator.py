"""`ModuleCoordinator`: the coordinator a hook module's ``mount`` receives.

It is the real `Coordinator` seen through one module: hooks (a `ScopedHooks`),
contributors, capabilities and cleanups are tracked per module and undone when the module
is unloaded, and it answers what the reference's ``ModuleCoordinator`` answers for hook
modules (mount points, session identity, configuration, shared attributes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import structlog

from amplifier_hooks._scoped import ScopedHooks
from amplifier_hooks._tasks import describe_exception

if TYPE_CHECKING:
    from amplifier_hooks.coordinator import Coordinator

logger = structlog.get_logger("amplifier_hooks")

Cleanup = Callable[[], Any]

APPROVAL_PROVIDER_CAPABILITY = "approval.register_provider"
"""The capability through which a reference-style approval module takes its provider."""

_OWN_ATTRIBUTES = frozenset({"coordinator", "hooks", "module_key", "_undo", "cleanups"})


class ModuleCoordinator:
    """The ``coordinator`` a module's ``mount`` receives: the real `Coordinator`, except
    that hooks, contributors, capabilities and cleanups are tracked per module and undone
    when the module is unloaded. ``.coordinator`` is the real one.

    It answers what the reference's ``ModuleCoordinator`` answers for a hook module:
    ``get("hooks")`` and the other mount points, ``mount_points``, ``session_id``,
    ``parent_id``, ``config``, capabilities, contributors and cleanups. An attribute a
    module sets on it (``coordinator.todo_state = ...``) is set on the real coordinator,
    so every module of the session sees it; the coordinator's own attributes cannot be
    replaced that way.
    """

    def __init__(self, coordinator: Coordinator, hooks: ScopedHooks) -> None:
        object.__setattr__(self, "coordinator", coordinator)
        object.__setattr__(self, "hooks", hooks)
        object.__setattr__(self, "module_key", hooks.owner)
        object.__setattr__(self, "_undo", [])
        object.__setattr__(self, "cleanups", [])

    coordinator: Coordinator
    hooks: ScopedHooks
    module_key: str
    _undo: list[Callable[[], None]]
    cleanups: list[Cleanup]

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
        self, channel: str, name: str, callback: Any, *, timeout: float | None = None
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
            from amplifier_hooks.amplifier.approvals import GateApprovalProvider

            self.hooks.make_approving()
            value(GateApprovalProvider(self.coordinator, source=self.module_key))
        return undo

    def register_cleanup(self, fn: Cleanup) -> None:
        """Run ``fn`` (sync or async) when this module unloads, newest first."""
        if not callable(fn):
            raise TypeError(f"cleanup must be callable, got {type(fn).__name__}")
        self.cleanups.append(fn)

    def withdraw(self) -> None:
        """Undo the module's registrations: handlers, contributors, capabilities."""
        self.hooks.close()
        while self._undo:
            undo = self._undo.pop()
            try:
                undo()
            except Exception as exc:  # one bad undo must not keep the rest in place
                logger.error(
                    "hook module registration could not be undone",
                    module=self.module_key,
                    error=describe_exception(exc),
                )

    # -- everything else: the real coordinator, shared by the session's modules -------------

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.coordinator, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _OWN_ATTRIBUTES:
            object.__setattr__(self, name, value)
            return
        self.coordinator.set_shared(name, value)

    def __delattr__(self, name: str) -> None:
        self.coordinator.delete_shared(name)


__all__ = ["APPROVAL_PROVIDER_CAPABILITY", "ModuleCoordinator"]
