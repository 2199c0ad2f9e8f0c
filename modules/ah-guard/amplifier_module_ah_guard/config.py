"""ah-guard's configuration, validated at mount (a typo fails the mount, not a call)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from amplifier_hooks.guard import PACKS, Rule
from amplifier_hooks.guard.mcptable import ToolEntry
from amplifier_hooks.modules.config import PathText, parse_module_config

__all__ = ["GuardConfig", "parse_config"]


class GuardConfig(BaseModel):
    """``pack``: the shipped rules (``default``) or ``none``; ``rules``: more rules (same
    schema; one with a pack rule's id replaces it); ``disable``: pack rule ids to drop;
    ``protect``: more files no call may change; ``workspace``: fixed workspace (default:
    the session's, else the current directory); ``git_deadline``: seconds git may take to
    say what a delete, discard or overwrite would lose (later: no grant); ``mcp_tools``:
    what the arguments of this bundle's own MCP servers' tools are (rows as in the pack's
    MCP table, ``default.mcp.yaml``; they come before its rows)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pack: str = "default"
    rules: tuple[Rule, ...] = ()
    disable: tuple[str, ...] = ()
    protect: tuple[PathText, ...] = ()
    workspace: PathText | None = None
    priority: int = Field(default=-100)
    approval_timeout: float | None = Field(default=None, gt=0)
    git_deadline: float = Field(default=0.02, gt=0, le=5)
    mcp_tools: tuple[ToolEntry, ...] = ()

    @field_validator("pack")
    @classmethod
    def _known_pack(cls, value: str) -> str:
        if value != "none" and value not in PACKS:
            raise ValueError(f"unknown pack {value!r}; packs: {', '.join(PACKS)}, none")
        return value


def parse_config(config: Mapping[str, Any] | None) -> GuardConfig:
    return parse_module_config(GuardConfig, config, "ah-guard")
