"""Configuration of ah-progress-monitor, validated once at mount."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from amplifier_hooks.modules.config import ChannelName, EventName, ToolName, parse_module_config

DEFAULT_READ_TOOLS: tuple[str, ...] = (
    "read_file",
    "read_many_files",
    "grep",
    "glob",
    "list_dir",
    "ls",
    "search",
    "web_search",
    "web_fetch",
)
DEFAULT_WRITE_TOOLS: tuple[str, ...] = (
    "write_file",
    "edit_file",
    "multi_edit",
    "apply_patch",
    "bash",
)

# Three tones: the first level nudges, the middle insists, the last one alarms. With more
# or fewer thresholds the first and last tone stay at the ends and the middle one repeats.
_GENTLE = (
    "Progress note: the last {count} tool calls only read or searched. If you know enough "
    "to act, make the change now; otherwise state what you are still looking for."
)
_FIRM = (
    "Progress check: {count} read-only tool calls in a row and no change yet. Stop "
    "exploring: write a short plan and make the first concrete edit or run."
)
_URGENT = (
    "URGENT: {count} consecutive read-only tool calls. You appear to be stuck in a reading "
    "loop. Act now (edit, run, or ask the user a specific question) instead of reading more."
)

Role = Literal["system", "user", "assistant"]
Level = Literal["info", "warning", "error"]


def default_messages(levels: int) -> list[str]:
    """One message per threshold: gentle first, urgent last, firm in between."""
    if levels == 1:
        return [_FIRM]
    return [_GENTLE, *([_FIRM] * (levels - 2)), _URGENT]


class ProgressMonitorConfig(BaseModel):
    """Keys of the module's ``config`` in a bundle (see README for the meaning of each)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    read_tools: list[ToolName] = Field(default_factory=lambda: list(DEFAULT_READ_TOOLS))
    write_tools: list[ToolName] = Field(default_factory=lambda: list(DEFAULT_WRITE_TOOLS))
    thresholds: list[int] = Field(default_factory=lambda: [10, 20, 30])
    messages: list[str] | None = None
    role: Role = "system"
    user_message: str | None = None
    user_message_level: Level = "warning"
    reset_events: list[EventName] = Field(default_factory=lambda: ["prompt:submit"])
    priority: int = 0
    status_channel: ChannelName | None = "progress.status"

    @field_validator("thresholds")
    @classmethod
    def _increasing(cls, thresholds: list[int]) -> list[int]:
        if not thresholds:
            raise ValueError("give at least one threshold")
        if any(t < 1 for t in thresholds):
            raise ValueError("thresholds must be positive integers")
        if any(b <= a for a, b in itertools.pairwise(thresholds)):
            raise ValueError(f"thresholds must be strictly increasing, got {thresholds}")
        return thresholds

    @field_validator("messages", "user_message")
    @classmethod
    def _templates(cls, value: list[str] | str | None) -> list[str] | str | None:
        for text in [value] if isinstance(value, str) else value or []:
            if not text.strip():
                raise ValueError("messages must not be blank")
            try:
                text.format(count=0)
            except (KeyError, IndexError, ValueError) as exc:
                raise ValueError(
                    f"bad template {text!r}: only the placeholder {{count}} is available "
                    f"(write '{{{{' for a literal brace): {exc}"
                ) from None
        return value

    @model_validator(mode="after")
    def _consistent(self) -> ProgressMonitorConfig:
        if self.messages is not None and len(self.messages) != len(self.thresholds):
            raise ValueError(
                f"messages has {len(self.messages)} "
                f"entr{'y' if len(self.messages) == 1 else 'ies'} but thresholds has "
                f"{len(self.thresholds)}: give one message per threshold, or omit messages"
            )
        both = _in_both(tuple(self.read_tools), tuple(self.write_tools))
        if both:
            raise ValueError(f"tools listed as both read and write: {list(both)}")
        return self

    @property
    def level_messages(self) -> list[str]:
        """The message template for each threshold, defaults filled in."""
        return (
            list(self.messages)
            if self.messages is not None
            else default_messages(len(self.thresholds))
        )


@functools.lru_cache(maxsize=64)
def _in_both(read_tools: tuple[str, ...], write_tools: tuple[str, ...]) -> tuple[str, ...]:
    # Every session's mount validates its config, nearly always with the same lists: the
    # globs are matched once per pair of lists (a pure function of them; a tuple, since
    # every caller gets the same one).
    return tuple(
        name for name in read_tools if any(fnmatchcase(name, pattern) for pattern in write_tools)
    )


def parse_config(raw: Mapping[str, Any] | None) -> ProgressMonitorConfig:
    """Validate ``raw`` (None means defaults); raise ``ValueError`` naming each bad key."""
    return parse_module_config(ProgressMonitorConfig, raw, "ah-progress-monitor")
