"""The module's configuration, validated at mount so a bad regex fails there, not mid-run."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from amplifier_hooks.modules.config import EventPattern, parse_module_config
from amplifier_module_ah_redaction.rules import BUILTIN_RULES

FIELD_RULE = "secret_field"
"""The rule that redacts whole values of fields named like secrets (``password``, …)."""

RULE_NAMES = frozenset({*BUILTIN_RULES, FIELD_RULE})

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class ExtraPattern(BaseModel):
    """A user rule: a regular expression whose matches are replaced by ``[REDACTED:<name>]``.

    A group named ``secret`` (or ``secret_<anything>``) limits the replacement to that group.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    pattern: str
    ignore_case: bool = False

    @field_validator("name")
    @classmethod
    def _check_name(cls, name: str) -> str:
        if not _NAME.fullmatch(name):
            raise ValueError(f"rule name {name!r} must be 1-64 characters of [A-Za-z0-9_.-]")
        if name in RULE_NAMES:
            raise ValueError(f"rule name {name!r} is taken by a built-in rule")
        return name

    @field_validator("pattern")
    @classmethod
    def _check_pattern(cls, pattern: str) -> str:
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from None
        if compiled.search("") is not None:
            # An empty match would insert a marker between every character.
            raise ValueError(f"regular expression {pattern!r} matches the empty string")
        return pattern

    def compile(self) -> re.Pattern[str]:
        return re.compile(self.pattern, re.IGNORECASE if self.ignore_case else 0)


class RedactionConfig(BaseModel):
    """Configuration keys of ah-redaction (see the README for each one)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    events: list[EventPattern] = Field(default_factory=lambda: ["*"])
    exclude_events: list[EventPattern] = Field(default_factory=lambda: ["tool:*"])
    pii: bool = False
    disabled_rules: list[str] = Field(default_factory=list)
    extra_patterns: list[ExtraPattern] = Field(default_factory=list)
    priority: int = -500
    fail_closed: bool = True
    """A scrub that fails or overruns its timeout denies the event (False: lets it through
    unscrubbed)."""
    capability: bool = True

    @field_validator("disabled_rules")
    @classmethod
    def _check_rules(cls, names: list[str]) -> list[str]:
        unknown = sorted(set(names) - RULE_NAMES)
        if unknown:
            raise ValueError(
                f"unknown rule(s) {', '.join(unknown)}; built-in rules are "
                f"{', '.join(sorted(RULE_NAMES))}"
            )
        return names

    @field_validator("extra_patterns")
    @classmethod
    def _check_unique(cls, patterns: list[ExtraPattern]) -> list[ExtraPattern]:
        names = [p.name for p in patterns]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"duplicate extra pattern name(s): {', '.join(duplicates)}")
        return patterns


def parse_config(raw: Mapping[str, Any] | None) -> RedactionConfig:
    """Validate ``raw`` (None means defaults); raise ``ValueError`` naming each bad key."""
    return parse_module_config(RedactionConfig, raw, "ah-redaction")
