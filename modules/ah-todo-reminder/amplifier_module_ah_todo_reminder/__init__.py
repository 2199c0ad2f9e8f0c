"""ah-todo-reminder: keep the model aware of its own todo list.

Keeps the latest list from the todo tool's ``tool:post`` events and injects it, ephemeral,
on every ``provider:request``; offers it on a contribution channel and announces changes as
``todo:updated`` / ``todo:item_completed`` events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.engine.channels import OBSERVABILITY_EVENTS
from amplifier_hooks.modules import CoordinatorView, Mounting
from amplifier_module_ah_todo_reminder.config import TodoReminderConfig, parse_config
from amplifier_module_ah_todo_reminder.reminder import (
    CUSTOM_EVENTS,
    TODO_ITEM_COMPLETED,
    TODO_UPDATED,
    TodoReminder,
)
from amplifier_module_ah_todo_reminder.todos import TodoItem, parse_todos, render

__all__ = [
    "CUSTOM_EVENTS",
    "MODULE_ID",
    "TODO_ITEM_COMPLETED",
    "TODO_UPDATED",
    "TodoItem",
    "TodoReminder",
    "TodoReminderConfig",
    "mount",
    "parse_todos",
    "render",
]

MODULE_ID = "ah-todo-reminder"


async def mount(
    coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
) -> Callable[[], None]:
    """Validate ``config``, register the handlers, and return the cleanup that removes them.

    Handler names (for per-handler overrides in a bundle): ``todo-reminder:track``
    (tool:post), ``todo-reminder:inject`` (each ``inject_on`` event) and
    ``todo-reminder:reset`` (each ``reset_on`` event).
    """
    settings = parse_config(config)
    reminder = TodoReminder(settings, coordinator.hooks)
    priority = settings.priority
    with Mounting(coordinator, MODULE_ID) as mounting:
        mounting.register(
            events.TOOL_POST, reminder.on_tool_post, priority, name="todo-reminder:track"
        )
        for event in dict.fromkeys(settings.inject_on):
            mounting.register(event, reminder.on_request, priority, name="todo-reminder:inject")
        for event in dict.fromkeys(settings.reset_on):
            mounting.register(event, reminder.on_reset, priority, name="todo-reminder:reset")
        if settings.channel:
            mounting.contribute(settings.channel, reminder.snapshot)
        if settings.emit_events:
            mounting.contribute(OBSERVABILITY_EVENTS, lambda: list(CUSTOM_EVENTS))
    return mounting.cleanup
