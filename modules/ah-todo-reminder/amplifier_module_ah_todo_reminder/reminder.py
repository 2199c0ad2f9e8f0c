"""The todo list's state, kept from the todo tool's calls and shown before each LLM call."""

from __future__ import annotations

from typing import Any

from amplifier_hooks import HookResult
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules import HooksView
from amplifier_module_ah_todo_reminder.config import TodoReminderConfig
from amplifier_module_ah_todo_reminder.todos import TodoItem, counts, parse_todos, render

logger = get_logger()

TODO_UPDATED = "todo:updated"
"""Emitted after every accepted list: ``{"todos": [...], "counts": {...}}``."""
TODO_ITEM_COMPLETED = "todo:item_completed"
"""Emitted once per item that became completed: ``{"content": str}``."""
CUSTOM_EVENTS = (TODO_UPDATED, TODO_ITEM_COMPLETED)


class TodoReminder:
    """Holds the latest todo list and turns it into an ephemeral reminder.

    The todo tool sends the whole list on every call, so the newest call simply replaces the
    state; nothing is merged. The reminder is ephemeral because the list changes often: a
    persisted copy per LLM call would fill the history with stale lists.
    """

    def __init__(self, config: TodoReminderConfig, hooks: HooksView) -> None:
        self.config = config
        self._hooks = hooks
        self._tools = frozenset(config.tool_names)
        self.items: list[TodoItem] = []

    async def on_tool_post(self, event: str, data: dict[str, Any]) -> None:
        """Take the list from a todo tool call; other tools are ignored."""
        if data.get("tool_name") not in self._tools:
            return
        tool_input = data.get("tool_input")
        raw = tool_input.get("todos") if isinstance(tool_input, dict) else None
        try:
            items, problems = parse_todos(raw)
        except TypeError as exc:
            # Keep the previous list: a malformed call must not erase what the model planned.
            logger.warning(
                "todo list ignored", hook_event=event, tool=data.get("tool_name"), error=str(exc)
            )
            return
        if problems:
            logger.warning("todo items skipped", hook_event=event, problems=problems)
        before = {item.content for item in self.items if item.status == "completed"}
        self.items = items
        if self.config.emit_events:
            await self._announce([i for i in items if i.status == "completed"], before)

    async def _announce(self, completed: list[TodoItem], before: set[str]) -> None:
        # Observers only: what their handlers return cannot undo a tool call that already
        # happened, so the resolutions are deliberately not consulted.
        await self._hooks.emit(
            TODO_UPDATED, {"todos": self.snapshot(), "counts": counts(self.items)}
        )
        for item in completed:
            if item.content not in before:
                await self._hooks.emit(TODO_ITEM_COMPLETED, {"content": item.content})

    async def on_request(self, event: str, data: dict[str, Any]) -> HookResult | None:
        """The list as an ephemeral note for this LLM call, unless there is nothing to do."""
        items = self.items
        if not items:
            return None
        if self.config.skip_when_all_complete and all(i.status == "completed" for i in items):
            return None
        return HookResult(
            action="inject_context",
            context_injection=render(items, self.config.header, self.config.max_items),
            context_injection_role=self.config.role,
            ephemeral=True,
        )

    async def on_reset(self, event: str, data: dict[str, Any]) -> None:
        """A new session starts with no list."""
        self.items = []

    def snapshot(self) -> list[dict[str, str]]:
        """The current list as plain dicts (for the channel and the events)."""
        return [item.as_dict() for item in self.items]
