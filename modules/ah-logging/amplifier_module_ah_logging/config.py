"""The module's configuration, validated at mount."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from amplifier_hooks.modules.config import EventPattern, PathText, parse_module_config

DEFAULT_PATH = "./.amplifier/hooks-events.jsonl"
DEFAULT_REDACT_KEYS = ("api_key", "token", "password", "secret", "authorization")


class LoggingConfig(BaseModel):
    """Configuration keys of ah-logging (see the README for each one)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: PathText = DEFAULT_PATH
    redact_keys: list[str] = Field(default_factory=lambda: list(DEFAULT_REDACT_KEYS))
    max_value_chars: int | None = Field(default=4000, ge=16)
    events: list[EventPattern] | None = None
    exclude_events: list[EventPattern] = Field(default_factory=list)
    priority: int = 1000
    scrub_secrets: bool = True

    @field_validator("redact_keys")
    @classmethod
    def _check_keys(cls, keys: list[str]) -> list[str]:
        blank = [k for k in keys if not k.strip()]
        if blank:
            raise ValueError("redact_keys must not contain blank names")
        return keys

    @field_validator("events")
    @classmethod
    def _check_include(cls, patterns: list[str] | None) -> list[str] | None:
        if patterns is None:
            return None
        if not patterns:
            raise ValueError("events must name at least one event or glob (omit it to log all)")
        return patterns


def parse_config(raw: Mapping[str, Any] | None) -> LoggingConfig:
    """Validate ``raw`` (None means defaults); raise ``ValueError`` naming each bad key."""
    return parse_module_config(LoggingConfig, raw, "ah-logging")
