"""Rules and the module's configuration, validated at mount.

A rule's templates are checked here too (only known fields, no attribute or index access),
so a typo in a prompt fails at mount instead of turning a question into a crash — which,
for a fail-closed approval hook, would deny every tool call.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from amplifier_hooks.modules.config import EventPattern, PathText, parse_module_config

TEMPLATE_FIELDS = ("tool", "command", "path", "event", "workspace", "rule")
DEFAULT_OPTIONS = ("Allow once", "Allow always", "Deny")
DEFAULT_SHELL_TOOLS = (
    "bash",
    "shell",
    "sh",
    "zsh",
    "run_shell",
    "run_shell_command",
    "shell_command",
    "execute_command",
    "exec",
    "terminal",
)
DEFAULT_WRITE_TOOLS = ("write_file", "edit_file", "multi_edit", "create_file", "notebook_edit")


def _check_template(template: str) -> str:
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ValueError(f"bad template {template!r}: {exc}") from None
    for _, field, _, _ in parsed:
        if field is not None and field not in TEMPLATE_FIELDS:
            raise ValueError(
                f"template {template!r} uses {{{field}}}; available fields: "
                + ", ".join(f"{{{f}}}" for f in TEMPLATE_FIELDS)
            )
    try:
        template.format_map(dict.fromkeys(TEMPLATE_FIELDS, "x"))
    except (ValueError, KeyError, IndexError) as exc:
        raise ValueError(f"bad template {template!r}: {exc}") from None
    return template


def _as_globs(value: Any) -> Any:
    # One glob or a list of them; a bare string is the common case in YAML.
    return [value] if isinstance(value, str) else value


class Rule(BaseModel):
    """One rule: when every given criterion matches, ``action`` applies (first match wins)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = None
    event: EventPattern = "tool:pre"
    tool: tuple[str, ...] | None = None
    command: tuple[str, ...] | None = None
    path: tuple[str, ...] | None = None
    outside_workspace: bool | None = None
    action: Literal["allow", "deny", "ask"]
    options: list[str] | None = None
    prompt: str | None = None
    reason: str | None = None
    timeout: float | None = Field(default=None, gt=0)
    default: Literal["allow", "deny"] | None = None
    approval_key: str | None = None

    @field_validator("action", mode="before")
    @classmethod
    def _alias_ask(cls, value: Any) -> Any:
        return "ask" if value == "ask_user" else value

    @field_validator("tool", "command", "path", mode="before")
    @classmethod
    def _globs(cls, value: Any) -> Any:
        return _as_globs(value)

    @field_validator("tool", "command", "path")
    @classmethod
    def _non_empty(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is not None and (not value or any(not p.strip() for p in value)):
            raise ValueError("needs at least one non-blank glob (omit the key to match anything)")
        return value

    @field_validator("prompt", "reason", "approval_key")
    @classmethod
    def _template(cls, value: str | None) -> str | None:
        return None if value is None else _check_template(value)

    @field_validator("options")
    @classmethod
    def _options(cls, options: list[str] | None) -> list[str] | None:
        if options is None:
            return None
        if not options or any(not o.strip() for o in options):
            raise ValueError("options must be a non-empty list of non-blank choices")
        if len(set(options)) != len(options):
            raise ValueError("options must not repeat a choice")
        return options

    @model_validator(mode="after")
    def _ask_fields(self) -> Rule:
        if self.action != "ask":
            extra = [
                key
                for key in ("options", "prompt", "timeout", "default", "approval_key")
                if getattr(self, key) is not None
            ]
            if extra:
                raise ValueError(
                    f"{', '.join(extra)} only apply to action 'ask' (this rule is {self.action!r})"
                )
        return self


class ApprovalConfig(BaseModel):
    """Configuration keys of ah-approval (see the README for each one)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: list[Rule] = Field(default_factory=list)
    defaults: bool = True
    workspace: PathText | None = None
    shell_tools: list[str] = Field(default_factory=lambda: list(DEFAULT_SHELL_TOOLS))
    write_tools: list[str] = Field(default_factory=lambda: list(DEFAULT_WRITE_TOOLS))
    approval_timeout: float = Field(default=300.0, gt=0)
    priority: int = -100


def default_rules(config: ApprovalConfig) -> list[Rule]:
    """The built-in rules, appended after the user's when ``defaults`` is on."""
    rules: list[Rule] = []
    if config.shell_tools:
        rules.append(
            Rule(
                name="default:shell",
                tool=tuple(config.shell_tools),
                action="ask",
                options=list(DEFAULT_OPTIONS),
                prompt="Allow {tool} to run this command?\n{command}",
                reason="shell commands need approval",
                approval_key="shell:{command}",
            )
        )
    if config.write_tools:
        rules.append(
            Rule(
                name="default:write-outside-workspace",
                tool=tuple(config.write_tools),
                outside_workspace=True,
                action="ask",
                options=list(DEFAULT_OPTIONS),
                prompt="Allow {tool} to write outside the workspace?\n{path}",
                reason="writes outside the workspace ({workspace}) need approval",
                approval_key="write-outside:{path}",
            )
        )
    return rules


def parse_config(raw: Mapping[str, Any] | None) -> ApprovalConfig:
    """Validate ``raw`` (None means defaults); raise ``ValueError`` naming each bad key."""
    return parse_module_config(ApprovalConfig, raw, "ah-approval")
