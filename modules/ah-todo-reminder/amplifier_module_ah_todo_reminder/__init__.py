"""ah-todo-reminder: keep the model aware of its own todo list.

Keeps the latest list from the todo tool's ``tool:post`` events and injects it, ephemeral,
on every ``provider:request``; offers it on a contribution channel and announces changes as
``todo:updated`` / ``todo:item_completed`` events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from amplifier_hooks import HookRegistry, events
from amplifier_hooks.channels import OBSERVABILITY_EVENTS
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


class _Host(Protocol):
    """The part of the Coordinator this module uses."""

    hooks: HookRegistry

    def register_contributor(
        self, channel: str, name: str, callback: Callable[[], Any]
    ) -> Callable[[], None]: ...


async def mount(coordinator: _Host, config: Mapping[str, Any] | None = None) -> Callable[[], None]:
    """Validate ``config``, register the handlers, and return the cleanup that removes them.

    Handler names (for per-handler overrides in a bundle): ``todo-reminder:track``
    (tool:post), ``todo-reminder:inject`` (each ``inject_on`` event) and
    ``todo-reminder:reset`` (each ``reset_on`` event).
    """
    settings = parse_config(config)
    hooks = coordinator.hooks
    reminder = TodoReminder(settings, hooks)
    priority = settings.priority
    undo = [
        hooks.register(
            events.TOOL_POST,
            reminder.on_tool_post,
            priority,
            name="todo-reminder:track",
            owner=MODULE_ID,
        )
    ]
    undo += [
        hooks.register(
            event, reminder.on_request, priority, name="todo-reminder:inject", owner=MODULE_ID
        )
        for event in dict.fromkeys(settings.inject_on)
    ]
    undo += [
        hooks.register(
            event, reminder.on_reset, priority, name="todo-reminder:reset", owner=MODULE_ID
        )
        for event in dict.fromkeys(settings.reset_on)
    ]
    if settings.channel:
        undo.append(
            coordinator.register_contributor(settings.channel, MODULE_ID, reminder.snapshot)
        )
    if settings.emit_events:
        undo.append(
            coordinator.register_contributor(
                OBSERVABILITY_EVENTS, MODULE_ID, lambda: list(CUSTOM_EVENTS)
            )
        )

    def cleanup() -> None:
        for unregister in undo:
            unregister()

    return cleanup
