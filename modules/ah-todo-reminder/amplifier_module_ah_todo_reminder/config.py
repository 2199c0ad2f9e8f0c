"""Configuration of ah-todo-reminder, validated once at mount."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from amplifier_hooks.events import validate_event_name
from amplifier_hooks.kit.config import parse_module_config

DEFAULT_HEADER = "Current todo list (keep it up to date with the todo tool)"


class TodoReminderConfig(BaseModel):
    """Keys of the module's ``config`` in a bundle (see README for the meaning of each)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool_names: list[str] = Field(default_factory=lambda: ["todo"], min_length=1)
    inject_on: list[str] = Field(default_factory=lambda: ["provider:request"])
    reset_on: list[str] = Field(default_factory=lambda: ["session:start"])
    skip_when_all_complete: bool = True
    header: str = DEFAULT_HEADER
    role: Literal["system", "user", "assistant"] = "system"
    max_items: int = Field(default=30, ge=1)
    channel: str | None = "todo.items"
    emit_events: bool = True
    priority: int = 0

    @field_validator("tool_names")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        if any(not name.strip() for name in names):
            raise ValueError("tool names must not be blank")
        return names

    @field_validator("inject_on", "reset_on")
    @classmethod
    def _events(cls, names: list[str]) -> list[str]:
        for name in names:
            validate_event_name(name)
        return names

    @field_validator("header")
    @classmethod
    def _header(cls, header: str) -> str:
        if not header.strip():
            raise ValueError("header must not be blank")
        return header

    @field_validator("channel")
    @classmethod
    def _channel(cls, channel: str | None) -> str | None:
        if channel is not None and (not channel.strip() or channel != channel.strip()):
            raise ValueError("channel must be a non-empty name without outer spaces")
        return channel


def parse_config(raw: Mapping[str, Any] | None) -> TodoReminderConfig:
    """Validate ``raw`` (None means defaults); raise ``ValueError`` naming each bad key."""
    return parse_module_config(TodoReminderConfig, raw, "ah-todo-reminder")
