"""The reference's test helpers (``amplifier_core.testing``), backed by this project.

A module's own test suite written for the reference builds a coordinator with
`create_test_coordinator`, mounts the module into it, emits events and checks what was
recorded. Here that coordinator is a real `Coordinator` seen through the same
per-module view the loader gives a mounted module, so such tests exercise the module as
it will run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from amplifier_hooks.amplifier.module_coordinator import ModuleCoordinator, withdraw
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.modules.scoped import ScopedHooks
from amplifier_hooks.session.coordinator import Coordinator

TEST_SESSION_ID = "test-session"


class TestCoordinator(ModuleCoordinator):
    """A module's view of a fresh `Coordinator` (session ``test-session``), its
    registrations live at once; `mount`/`unmount` calls are recorded."""

    __test__ = False  # not a pytest test class, whatever its name says

    def __init__(self, *, session_id: str = TEST_SESSION_ID, **coordinator_kwargs: Any) -> None:
        coordinator = Coordinator(session_id=session_id, **coordinator_kwargs)
        scope = ScopedHooks(coordinator.hooks, "test-module")
        scope.activate()
        super().__init__(coordinator, scope)
        object.__setattr__(self, "mount_history", [])
        object.__setattr__(self, "unmount_history", [])

    mount_history: list[dict[str, Any]]
    unmount_history: list[dict[str, Any]]

    async def mount(self, mount_point: str, module: Any, name: str | None = None) -> None:
        """Mount ``module`` on the coordinator, and record the call."""
        self.mount_history.append({"mount_point": mount_point, "module": module, "name": name})
        self.coordinator.mount(mount_point, module, name)

    async def unmount(self, mount_point: str, name: str | None = None) -> None:
        """Unmount from the coordinator, and record the call."""
        self.unmount_history.append({"mount_point": mount_point, "name": name})
        self.coordinator.unmount(mount_point, name)

    async def cleanup(self) -> None:
        """Undo the module's registrations, run its cleanups, then the coordinator's."""
        withdraw(self)
        for fn in reversed(self.cleanups):
            value = fn()
            if asyncio.iscoroutine(value):
                await value
        await self.coordinator.cleanup()


def create_test_coordinator() -> TestCoordinator:
    """A fresh `TestCoordinator`."""
    return TestCoordinator()


class EventRecorder:
    """Records ``(event, data)`` pairs; register `record` as a handler to capture events."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    async def emit(self, event: str, data: dict[str, Any]) -> HookResult:
        """Record one event (a copy of its data) and continue."""
        self.events.append((event, dict(data)))
        return HookResult()

    async def record(self, event: str, data: dict[str, Any]) -> HookResult:
        """Same as `emit`, under the name a handler registration reads better with."""
        return await self.emit(event, data)

    def clear(self) -> None:
        """Forget everything recorded."""
        self.events.clear()

    def get_events(self, event_type: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """Every recorded pair, or those of one event."""
        if event_type is None:
            return list(self.events)
        return [pair for pair in self.events if pair[0] == event_type]


class MockContextManager:
    """A context manager holding messages in a list, for modules that read or add context."""

    def __init__(self, messages: list[dict[str, Any]] | None = None) -> None:
        self.messages: list[dict[str, Any]] = list(messages or [])

    async def add_message(self, message: dict[str, Any]) -> None:
        """Append ``message``."""
        self.messages.append(message)

    async def get_messages(self) -> list[dict[str, Any]]:
        """A copy of every message."""
        return list(self.messages)

    async def get_messages_for_request(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        """Every message (no compaction in a mock)."""
        return list(self.messages)

    async def set_messages(self, messages: list[dict[str, Any]]) -> None:
        """Replace every message."""
        self.messages = list(messages)

    async def clear(self) -> None:
        """Drop every message."""
        self.messages.clear()


async def wait_for(condition: Callable[[], bool], timeout: float = 1.0) -> bool:
    """Poll ``condition`` (yielding to the loop between tries) until it holds or
    ``timeout`` seconds pass; True if it held."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.01)
