"""ah-progress-monitor: nudge an agent that keeps reading without acting.

Counts read-only tool calls on ``tool:post`` since the last write and, at each configured
threshold, injects an escalating ephemeral note (gentle, firm, urgent) for the next LLM call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.modules import CoordinatorView, Mounting
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


async def mount(
    coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
) -> Callable[[], None]:
    """Validate ``config``, register the handlers, and return the cleanup that removes them.

    Handler names (for per-handler overrides in a bundle): ``progress-monitor:tool-post`` and
    ``progress-monitor:reset`` (one registration per reset event).
    """
    settings = parse_config(config)
    monitor = ProgressMonitor(settings)
    with Mounting(coordinator, MODULE_ID) as mounting:
        mounting.register(
            events.TOOL_POST,
            monitor.on_tool_post,
            settings.priority,
            name="progress-monitor:tool-post",
        )
        for event in dict.fromkeys(settings.reset_events):
            mounting.register(
                event, monitor.on_reset, settings.priority, name="progress-monitor:reset"
            )
        if settings.status_channel:
            mounting.contribute(settings.status_channel, monitor.status)
    return mounting.cleanup
