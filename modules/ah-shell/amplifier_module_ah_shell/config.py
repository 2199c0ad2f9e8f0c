"""Configuration of ah-shell: which commands run on which events, validated at mount."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from amplifier_hooks.modules.config import EventName, parse_module_config

PlainStdout = Literal["auto", "context", "ignore", "error"]

MATCH_ALL = frozenset({"", "*"})
"""Matcher values that mean "every call", as in Claude Code settings."""


class ShellHookSpec(BaseModel):
    """One command hook: run ``command`` on ``event`` when ``matcher`` matches the tool."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    event: EventName
    command: str
    matcher: str | None = None
    timeout: float = Field(default=10.0, gt=0, le=3600)
    fail_closed: bool = False
    name: str | None = None
    priority: int = 0
    cwd: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    plain_stdout: PlainStdout = "auto"
    ephemeral: bool = False

    @field_validator("command")
    @classmethod
    def _command(cls, command: str) -> str:
        if not command.strip():
            raise ValueError("command must not be blank")
        return command

    @field_validator("matcher")
    @classmethod
    def _matcher(cls, matcher: str | None) -> str | None:
        if matcher is not None and matcher not in MATCH_ALL:
            try:
                re.compile(matcher)
            except re.error as exc:
                raise ValueError(
                    f"matcher {matcher!r} is not a valid regular expression: {exc}"
                ) from None
        return matcher

    @field_validator("name")
    @classmethod
    def _name(cls, name: str | None) -> str | None:
        if name is not None and not name.strip():
            raise ValueError("name must not be blank (omit it to derive one)")
        return name

    @property
    def pattern(self) -> re.Pattern[str] | None:
        """The compiled matcher, or None when every call matches."""
        if self.matcher is None or self.matcher in MATCH_ALL:
            return None
        return re.compile(self.matcher)

    def handler_name(self, index: int) -> str:
        """The configured name, else ``shell:<index>:<program>`` (stable across runs)."""
        if self.name:
            return self.name
        try:
            words = shlex.split(self.command)
        except ValueError:  # unbalanced quotes: the shell will complain at run time
            words = self.command.split()
        program = os.path.basename(words[0]) if words else "command"
        return f"shell:{index}:{re.sub(r'[^A-Za-z0-9_.-]', '_', program) or 'command'}"


class ShellConfig(BaseModel):
    """Keys of the module's ``config`` in a bundle (see README for the meaning of each)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hooks: list[ShellHookSpec] = Field(default_factory=list)
    cwd: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    shell: str = "/bin/sh"
    event_names: Literal["claude", "amplifier"] = "claude"
    max_output_bytes: int = Field(default=1_048_576, ge=1024)

    @model_validator(mode="after")
    def _unique_names(self) -> ShellConfig:
        names = [spec.handler_name(i) for i, spec in enumerate(self.hooks)]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(
                f"hook names must be unique (bundles address handlers by name): {repeated}"
            )
        return self


def parse_config(raw: Mapping[str, Any] | None) -> ShellConfig:
    """Validate ``raw`` (None means defaults); raise ``ValueError`` naming each bad key."""
    return parse_module_config(ShellConfig, raw, "ah-shell")
