"""Tool names and inputs between a host's vocabulary and ours.

Handlers written for Amplifier know ``bash``, ``read_file``, ``write_file``...; a host
calls them ``Bash``, ``Read``, ``run_shell_command``. On our side a tool call carries the
canonical name, and its input keeps the host's field names (they are Amplifier's too:
``command``, ``file_path``) plus ``path`` as another name for ``file_path``, because many
rules look for a path. Going back (a handler's ``modify``), the alias is folded into the
host's field, so the host gets its own input shape, whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from amplifier_hooks.tool_names import CLAUDE_NAMES, GEMINI_NAMES

__all__ = ["CLAUDE_TOOLS", "GEMINI_TOOLS", "InputMappingError", "ToolNames"]

PATH_ALIAS = "path"


class InputMappingError(ValueError):
    """A changed tool input that cannot be said in the host's field names."""


@dataclass(frozen=True)
class ToolNames:
    """One host's tool names -> ours, and the input field our ``path`` aliases."""

    to_canonical: Mapping[str, str]
    path_fields: tuple[str, ...] = ("file_path",)
    """Input fields that ``path`` also names, when the input has no ``path`` of its own."""
    derived: Mapping[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = field(
        default_factory=dict
    )
    """Per host tool name: fields read from its input and added on our side (Codex's
    ``apply_patch`` gets the paths in its patch). Never sent back to the host."""

    def canonical(self, name: str) -> str:
        """Our name for the host's tool ``name``; unknown and MCP tools keep theirs."""
        return self.to_canonical.get(name, name)

    def host_name(self, canonical: str, original: str) -> str:
        """The host's name for ``canonical``: the original when it maps there."""
        if self.canonical(original) == canonical:
            return original
        for theirs, ours in self.to_canonical.items():
            if ours == canonical:
                return theirs
        return canonical

    def alias_field(self, tool_input: Mapping[str, Any]) -> str | None:
        """The field ``path`` stands for in this input, if it gets the alias."""
        if PATH_ALIAS in tool_input:
            return None
        return next((f for f in self.path_fields if isinstance(tool_input.get(f), str)), None)

    def canonical_input(
        self, tool_input: Mapping[str, Any], tool: str | None = None
    ) -> dict[str, Any]:
        """The input handlers see: the host's fields, plus ``path`` where it aliases,
        plus the fields derived for the host's ``tool``."""
        derive = self.derived.get(tool) if tool is not None else None
        if derive is not None:
            return {**tool_input, **derive(tool_input)}
        mapped = dict(tool_input)
        alias = self.alias_field(tool_input)
        if alias is not None:
            mapped[PATH_ALIAS] = tool_input[alias]
        return mapped

    def host_input(
        self, changed: Mapping[str, Any], original: Mapping[str, Any], tool: str | None = None
    ) -> dict[str, Any]:
        """A handler's changed input, back in the host's fields (whole).

        ``path`` is folded into the field it aliases: a handler may change either one;
        changing both to different values cannot be said, so it is an `InputMappingError`.
        Derived fields are dropped; changing one of them (and not what it is read from)
        cannot be said either.
        """
        derive = self.derived.get(tool) if tool is not None else None
        if derive is not None:
            return _without_derived(derive, changed, original)
        result = dict(changed)
        alias = self.alias_field(original)
        if alias is None:
            return result
        before = original[alias]
        new_path = result.pop(PATH_ALIAS, before)
        new_field = result.get(alias, before)
        if new_path != before and new_field != before and new_path != new_field:
            raise InputMappingError(
                f"the input's {PATH_ALIAS!r} and {alias!r} were changed to different values "
                f"({new_path!r}, {new_field!r}); the host has only {alias!r}"
            )
        if alias not in result and new_path == before:
            return result  # the handler removed the field itself: keep that
        result[alias] = new_path if new_path != before else new_field
        return result


def _without_derived(
    derive: Callable[[Mapping[str, Any]], dict[str, Any]],
    changed: Mapping[str, Any],
    original: Mapping[str, Any],
) -> dict[str, Any]:
    before = derive(original)
    result = {k: v for k, v in changed.items() if k not in before}
    after = derive(result)
    stale = sorted(k for k in before if k in changed and changed[k] not in (before[k], after[k]))
    if stale:
        raise InputMappingError(
            f"{', '.join(stale)} of this tool's input are read from its other fields; "
            "change those instead"
        )
    return result


CLAUDE_TOOLS = ToolNames(CLAUDE_NAMES)
"""Claude Code's built-in tools (Codex uses the same names)."""

GEMINI_TOOLS = ToolNames(GEMINI_NAMES)
"""Gemini CLI's built-in tools (`tool_names.GEMINI_NAMES`)."""
