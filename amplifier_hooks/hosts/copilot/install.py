"""Our hooks for GitHub Copilot CLI: ``<project>/.github/hooks/amplifier-hooks.json``.

Copilot CLI 1.0.102 loads every ``.github/hooks/*.json`` of the directory it runs in --
only in a folder it trusts (its trust prompt, or ``--trust-folder`` for one ``-p``
session; skipped without a word otherwise). Ours is a file of its own, so the user's
hook files are never touched; inside it, hooks that are not ours stay too. Each event
gets one command that names the event (Copilot's input does not):
``... amplifier_hooks.cli copilot hook --bundle B --event preToolUse``. On the events
that guard, the command is wrapped fail-closed (`amplifier_hooks.hosts.wrapper`) with a
JSON deny: Copilot lets the tool run on a timeout or an answer that is not JSON, lets a
prompt through on any exit code, and shows the model no reason for a failed hook.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts.claude_code.install import is_ours, read_settings, settings_text
from amplifier_hooks.hosts.copilot import COPILOT_PROFILE
from amplifier_hooks.hosts.footprint import install_text, uninstall_text
from amplifier_hooks.hosts.launch import hook_argv
from amplifier_hooks.hosts.wrapper import WHY, event_command

__all__ = [
    "HOOKS_FILE",
    "CopilotPlan",
    "CopilotReport",
    "install_copilot",
    "read_hooks_file",
    "uninstall_copilot",
]

HOOKS_FILE = Path(".github") / "hooks" / "amplifier-hooks.json"
"""Our hooks file, relative to the project directory."""

FAILURE_ANSWERS: Mapping[str, Mapping[str, str]] = {
    "preToolUse": {"permissionDecision": "deny", "permissionDecisionReason": WHY},
    "userPromptSubmitted": {"decision": "block", "reason": WHY},
}
"""What the wrapper prints when our process gives no answer, per guarding event."""


@dataclass(frozen=True)
class CopilotPlan:
    """What to install: the bundle and the Copilot CLI events to wire."""

    bundle: Path
    events: tuple[str, ...]
    executable: str = sys.executable

    def argv(self, event: str) -> list[str]:
        return [*hook_argv(self.executable, "copilot", self.bundle), "--event", event]

    def handler(self, event: str) -> dict[str, Any]:
        """Our hook for ``event``: seconds, fail-closed with a JSON deny where it guards."""
        failure = FAILURE_ANSWERS.get(event)
        command, timeout = event_command(COPILOT_PROFILE, self.argv(event), event, failure)
        return {"type": "command", "bash": command, "timeoutSec": timeout}


@dataclass(frozen=True)
class CopilotReport:
    """What an install or uninstall changed."""

    path: Path
    changed: bool
    events: tuple[str, ...]

    def status(self) -> str:
        """One line: what Copilot CLI needs to run our hooks."""
        if not self.events:
            return "status: no amplifier-hooks hooks are installed for Copilot CLI here"
        return (
            f"status: Copilot CLI runs these {len(self.events)} hook(s) only in a trusted "
            "folder: answer its trust prompt, or pass --trust-folder with -p; run it from "
            f"{self.path.parents[2]} (it reads .github/hooks of its working directory)"
        )


def _ours(handler: object) -> bool:
    return isinstance(handler, Mapping) and is_ours({"command": handler.get("bash")})


def read_hooks_file(path: Path) -> dict[str, Any]:
    """The hooks file at ``path`` ({} when missing); `SettingsError` when it is not a
    JSON object whose ``hooks`` are lists by event (Claude Code's check fits it)."""
    return read_settings(path)


def _without_ours(settings: Mapping[str, Any]) -> dict[str, Any]:
    hooks = {
        event: kept
        for event, entries in (settings.get("hooks") or {}).items()
        if (kept := [h for h in entries if not _ours(h)]) or not entries
    }
    return {**settings, "hooks": hooks} if settings else {}


def _events(settings: Mapping[str, Any]) -> tuple[str, ...]:
    hooks = settings.get("hooks") or {}
    return tuple(sorted(e for e, entries in hooks.items() if any(_ours(h) for h in entries)))


def install_copilot(project: Path, plan: CopilotPlan) -> CopilotReport:
    """Write our hooks into ``project``'s hooks file (nothing is written when it already
    has exactly them)."""
    path = project / HOOKS_FILE
    settings = read_hooks_file(path)
    updated = _without_ours(settings) or {"version": 1, "hooks": {}}
    updated.setdefault("version", 1)
    hooks = updated.setdefault("hooks", {})
    for event in plan.events:
        hooks.setdefault(event, []).append(plan.handler(event))
    changed = updated != settings
    if changed:
        install_text(path, settings_text(updated))
    return CopilotReport(path, changed, _events(updated))


def uninstall_copilot(project: Path) -> CopilotReport:
    """Take our hooks out of ``project``'s hooks file (the file goes when nothing but its
    version is left in it)."""
    path = project / HOOKS_FILE
    settings = read_hooks_file(path)
    updated = _without_ours(settings)
    changed = updated != settings
    if changed:
        rest = {k: v for k, v in updated.items() if k not in ("version", "hooks")}
        kept = updated.get("hooks") or rest
        uninstall_text(path, settings_text(updated) if kept else None)
    return CopilotReport(path, changed, _events(updated))
