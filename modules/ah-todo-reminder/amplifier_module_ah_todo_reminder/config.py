"""Configuration of ah-todo-reminder, validated once at mount."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from amplifier_hooks.modules.config import ChannelName, EventName, ToolName, parse_module_config

DEFAULT_HEADER = "Current todo list (keep it up to date with the todo tool)"


class TodoReminderConfig(BaseModel):
    """Keys of the module's ``config`` in a bundle (see README for the meaning of each)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool_names: list[ToolName] = Field(default_factory=lambda: ["todo"], min_length=1)
    inject_on: list[EventName] = Field(default_factory=lambda: ["provider:request"])
    reset_on: list[EventName] = Field(default_factory=lambda: ["session:start"])
    skip_when_all_complete: bool = True
    header: str = DEFAULT_HEADER
    role: Literal["system", "user", "assistant"] = "system"
    max_items: int = Field(default=30, ge=1)
    channel: ChannelName | None = "todo.items"
    emit_events: bool = True
    priority: int = 0

    @field_validator("header")
    @classmethod
    def _header(cls, header: str) -> str:
        if not header.strip():
            raise ValueError("header must not be blank")
        return header


def parse_config(raw: Mapping[str, Any] | None) -> TodoReminderConfig:
    """Validate ``raw`` (None means defaults); raise ``ValueError`` naming each bad key."""
    return parse_module_config(TodoReminderConfig, raw, "ah-todo-reminder")
