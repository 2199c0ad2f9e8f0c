"""ah-progress-monitor: nudge an agent that keeps reading without acting.

Counts read-only tool calls on ``tool:post`` since the last write and, at each configured
threshold, injects an escalating ephemeral note (gentle, firm, urgent) for the next LLM call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from amplifier_hooks import HookRegistry, events
from amplifier_module_ah_progress_monitor.config import (
    DEFAULT_READ_TOOLS,
    DEFAULT_WRITE_TOOLS,
    ProgressMonitorConfig,
    parse_config,
)
from amplifier_module_ah_progress_monitor.monitor import ProgressMonitor

__all__ = [
    "DEFAULT_READ_TOOLS",
    "DEFAULT_WRITE_TOOLS",
    "MODULE_ID",
    "ProgressMonitor",
    "ProgressMonitorConfig",
    "mount",
]

MODULE_ID = "ah-progress-monitor"


class _Host(Protocol):
    """The part of the Coordinator this module uses."""

    hooks: HookRegistry

    def register_contributor(
        self, channel: str, name: str, callback: Callable[[], Any]
    ) -> Callable[[], None]: ...


async def mount(coordinator: _Host, config: Mapping[str, Any] | None = None) -> Callable[[], None]:
    """Validate ``config``, register the handlers, and return the cleanup that removes them.

    Handler names (for per-handler overrides in a bundle): ``progress-monitor:tool-post`` and
    ``progress-monitor:reset`` (one registration per reset event).
    """
    settings = parse_config(config)
    monitor = ProgressMonitor(settings)
    hooks = coordinator.hooks
    undo = [
        hooks.register(
            events.TOOL_POST,
            monitor.on_tool_post,
            settings.priority,
            name="progress-monitor:tool-post",
            owner=MODULE_ID,
        )
    ]
    undo += [
        hooks.register(
            event,
            monitor.on_reset,
            settings.priority,
            name="progress-monitor:reset",
            owner=MODULE_ID,
        )
        for event in dict.fromkeys(settings.reset_events)
    ]
    if settings.status_channel:
        undo.append(
            coordinator.register_contributor(settings.status_channel, MODULE_ID, monitor.status)
        )

    def cleanup() -> None:
        for unregister in undo:
            unregister()

    return cleanup
