"""Our hooks in a Gemini CLI settings.json: merged in, found again, taken out.

Gemini CLI 0.61 reads ``hooks`` from the user's ``~/.gemini/settings.json`` (run without
asking, also under ``--skip-trust``) and from a project's ``.gemini/settings.json`` --
only in a folder it trusts: not under ``--skip-trust`` (silently), but with
``GEMINI_CLI_TRUST_WORKSPACE=true`` or once the user trusted the folder. Both have
Claude Code's shape, so the merge is Claude Code's
(`amplifier_hooks.hosts.claude_code.install`: every other setting and the user's own
hooks stay, twice is the same as once). Timeouts are milliseconds
(`GEMINI_PROFILE.timeouts`), and the command is wrapped fail-closed on the events that
guard (`amplifier_hooks.hosts.wrapper`): Gemini CLI lets the tool run when a hook exits 1,
times out or prints something that is not JSON.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts.claude_code.install import (
    given_back,
    read_settings,
    remove_ours,
    settings_text,
)
from amplifier_hooks.hosts.footprint import install_text, uninstall_text
from amplifier_hooks.hosts.gemini import GEMINI_PROFILE
from amplifier_hooks.hosts.wrapper import CommandPlan

__all__ = [
    "HOOK_NAME",
    "GeminiPlan",
    "GeminiReport",
    "gemini_settings_path",
    "install_gemini",
    "uninstall_gemini",
]

HOOK_NAME = "amplifier-hooks"
"""The ``name`` of our hooks (Gemini CLI shows it, and dedupes hooks by name and command)."""


def gemini_settings_path(
    project: Path | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """The project's ``.gemini/settings.json``, or (None) the user's ``~/.gemini/settings.json``."""
    if project is not None:
        return Path(os.path.abspath(project)) / ".gemini" / "settings.json"
    env = os.environ if environ is None else environ
    return Path(env.get("HOME") or Path.home()) / ".gemini" / "settings.json"


class GeminiPlan(CommandPlan):
    """What to install: the bundle and the Gemini CLI events to wire."""

    profile = GEMINI_PROFILE

    def handler(self, event: str) -> dict[str, Any]:
        """Our hook for ``event``: milliseconds, fail-closed where the event guards."""
        command, timeout = self.command(event)
        return {"name": HOOK_NAME, "type": "command", "command": command, "timeout": timeout}


@dataclass(frozen=True)
class GeminiReport:
    """What an install or uninstall changed, and whether Gemini CLI will run our hooks."""

    path: Path
    changed: bool
    events: tuple[str, ...]
    """The events our hooks are on after the change."""
    project: bool
    hooks_disabled: bool
    """``hooksConfig.enabled`` is false in this file: Gemini CLI runs no hook from it."""

    def status(self) -> str:
        """One line: will Gemini CLI run our hooks, and if not, what to do."""
        if not self.events:
            return "status: no amplifier-hooks hooks are installed for Gemini CLI here"
        if self.hooks_disabled:
            return (
                f"status: NOT RUN: hooksConfig.enabled is false in {self.path}; set it to "
                "true (or remove it) for Gemini CLI to run any hook"
            )
        if self.project:
            return (
                "status: project hooks: Gemini CLI loads them only in a trusted folder -- "
                "trust it when Gemini CLI asks, or set GEMINI_CLI_TRUST_WORKSPACE=true; "
                "under --skip-trust they are NOT loaded (use the user-level install)"
            )
        return f"status: Gemini CLI will run {len(self.events)} amplifier-hooks hook(s)"


def _ours_events(settings: Mapping[str, Any]) -> tuple[str, ...]:
    hooks = settings.get("hooks") or {}
    unchanged = remove_ours(settings).get("hooks") or {}
    return tuple(sorted(e for e in hooks if hooks[e] != unchanged.get(e)))


def _report(path: Path, settings: Mapping[str, Any], changed: bool, project: bool) -> GeminiReport:
    config = settings.get("hooksConfig")
    disabled = isinstance(config, Mapping) and config.get("enabled") is False
    return GeminiReport(path, changed, _ours_events(settings), project, disabled)


def install_gemini(path: Path, plan: GeminiPlan, *, project: bool = False) -> GeminiReport:
    """Merge our hooks into the settings file at ``path`` (nothing is written when it
    already has exactly them)."""
    settings = read_settings(path)
    updated = remove_ours(settings)
    hooks = updated.setdefault("hooks", {})
    for event in plan.events:
        hooks.setdefault(event, []).append({"hooks": [plan.handler(event)]})
    changed = updated != settings or not path.exists()
    if changed:
        install_text(path, settings_text(updated))
    return _report(path, updated, changed, project)


def uninstall_gemini(path: Path, *, project: bool = False) -> GeminiReport:
    """Take our hooks out of the settings file at ``path``."""
    settings = read_settings(path)
    updated = remove_ours(settings)
    changed = updated != settings
    if changed:
        uninstall_text(path, given_back(updated))
    return _report(path, updated, changed, project)
