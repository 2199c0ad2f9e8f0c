"""Our hooks in a Claude Code settings file: merged in, found again, taken out.

Everything in the file that is not ours stays as it is (other settings, the user's own
hooks, their order). Ours are recognised by what they run: a command hook whose command
is ``... claude-code hook ...`` of amplifier-hooks, or an HTTP hook that sends
``$AMPLIFIER_HOOKS_TOKEN``. Installing first takes out what is ours, then appends one
matcher group per event, so installing twice writes the same file (and the second time
nothing is written at all). The file is replaced atomically; a file that is not valid
JSON is an error naming the file and the position, and nothing is written.
"""

from __future__ import annotations

import copy
import json
import shlex
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.hosts.claude_code.entrypoint import ENTRYPOINT_ENV, ENTRYPOINT_HEADER
from amplifier_hooks.hosts.dialect import CLAUDE_CODE_DIALECT, Dialect
from amplifier_hooks.hosts.footprint import install_text, uninstall_text, write_text
from amplifier_hooks.hosts.launch import COMMAND_MARKERS, hook_argv

__all__ = [
    "COMMAND_MARKERS",
    "DEFAULT_SETTINGS",
    "HOOK_TIMEOUT",
    "SESSION_END_TIMEOUT",
    "TOKEN_ENV",
    "InstallPlan",
    "SettingsError",
    "given_back",
    "hook_events",
    "install_hooks",
    "is_ours",
    "read_settings",
    "remove_ours",
    "settings_text",
    "uninstall_hooks",
    "write_settings",
    "write_text",
]

DEFAULT_SETTINGS = Path(".claude") / "settings.json"
"""The project's settings file, relative to the project directory."""

TOKEN_ENV = "AMPLIFIER_HOOKS_TOKEN"
HOOK_TIMEOUT = 600
"""Seconds Claude Code waits for our answer: long enough for a person to answer an
approval (whose own default timeout is 300 s). A hook that times out decides nothing."""
SESSION_END_TIMEOUT = 10
"""SessionEnd hooks share one short budget, raised to the largest timeout configured:
ours keeps Claude Code's exit quick."""


class SettingsError(ValueError):
    """A settings file we cannot safely change: the file and what is wrong with it."""


@dataclass(frozen=True)
class InstallPlan:
    """What to install: the bundle, the events, and the URL for HTTP hooks (None:
    command hooks)."""

    bundle: Path
    events: tuple[str, ...]
    url: str | None = None
    executable: str = sys.executable

    def command(self) -> str:
        """The shell command of our command hooks: this interpreter runs the CLI, so it
        works without the virtual environment on PATH."""
        return shlex.join(hook_argv(self.executable, "claude-code", self.bundle))

    def handler(self, event: str, dialect: Dialect = CLAUDE_CODE_DIALECT) -> dict[str, Any]:
        """Our hook handler for ``event``."""
        timeout = SESSION_END_TIMEOUT if event == "SessionEnd" else HOOK_TIMEOUT
        handler: dict[str, Any]
        if self.url is None:
            handler = {"type": "command", "command": self.command(), "timeout": timeout}
        else:
            handler = {
                "type": "http",
                "url": self.url,
                # The entrypoint says whether a person is at Claude Code's prompt
                # (entrypoint.py); a command hook's process has it in its environment.
                "headers": {
                    "Authorization": f"Bearer ${TOKEN_ENV}",
                    ENTRYPOINT_HEADER: f"${ENTRYPOINT_ENV}",
                },
                "allowedEnvVars": [TOKEN_ENV, ENTRYPOINT_ENV],
                "timeout": timeout,
            }
        if dialect.guarding(event):
            # Without it Claude Code lets the call through when the hook gives no usable
            # answer: a server that is down, a timeout, a command that cannot start or
            # exits 1 (observed with 2.1.331, on command and HTTP hooks alike).
            handler["onFailure"] = "block"
        return handler


def hook_events(handled: Iterable[str], dialect: Dialect = CLAUDE_CODE_DIALECT) -> tuple[str, ...]:
    """The host events to wire for a bundle whose handlers listen to ``handled`` (our
    event names), plus SessionEnd, so that sessions are always closed. Sorted."""
    found = {dialect.host_event_of(event) for event in (*handled, events.SESSION_END)}
    return tuple(sorted(e for e in found if e is not None))


def is_ours(handler: object) -> bool:
    """Whether a hook handler is one we installed."""
    if not isinstance(handler, Mapping):
        return False
    kind = handler.get("type", "command")
    if kind == "command":
        command = handler.get("command")
        return isinstance(command, str) and any(m in command for m in COMMAND_MARKERS)
    if kind == "http":
        allowed = handler.get("allowedEnvVars")
        return isinstance(allowed, list) and TOKEN_ENV in allowed
    return False


def read_settings(path: Path) -> dict[str, Any]:
    """The settings in ``path`` ({} when it does not exist); `SettingsError` when it is
    not a JSON object, or its ``hooks`` are not shaped as Claude Code reads them."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read: {exc}") from None
    if not text.strip():
        return {}
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettingsError(
            f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    if not isinstance(settings, dict):
        raise SettingsError(f"{path}: expected a JSON object at the top level")
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f"{path}: 'hooks' must be an object of events")
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            raise SettingsError(f"{path}: 'hooks.{event}' must be a list of matcher groups")
    return settings


def remove_ours(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``settings`` without our handlers (groups and events we leave empty go
    too; the user's own empty ones stay)."""
    result = copy.deepcopy(dict(settings))
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result
    for event in list(hooks):
        groups = hooks[event]
        kept_groups = []
        touched = False
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list) or not any(is_ours(h) for h in handlers):
                kept_groups.append(group)
                continue
            touched = True
            rest = [h for h in handlers if not is_ours(h)]
            if rest:
                kept_groups.append({**group, "hooks": rest})
        if touched and not kept_groups:
            del hooks[event]
        else:
            hooks[event] = kept_groups
    if not hooks and "hooks" in settings and settings["hooks"]:
        del result["hooks"]
    return result


def with_ours(settings: Mapping[str, Any], plan: InstallPlan) -> dict[str, Any]:
    """``settings`` with our hooks (and no older ones of ours)."""
    result = remove_ours(settings)
    hooks = result.setdefault("hooks", {})
    for event in plan.events:
        hooks.setdefault(event, []).append({"hooks": [plan.handler(event)]})
    return result


def settings_text(settings: Mapping[str, Any]) -> str:
    """``settings`` as we write a settings file."""
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def write_settings(path: Path, settings: Mapping[str, Any]) -> None:
    """Replace ``path`` with ``settings`` atomically (see `write_text`)."""
    write_text(path, settings_text(settings))


def given_back(settings: Mapping[str, Any]) -> str | None:
    """What uninstall leaves of a settings file: its text, None when nothing is left."""
    return settings_text(settings) if settings else None


def install_hooks(path: Path, plan: InstallPlan) -> bool:
    """Merge our hooks into the settings file at ``path``; False if it already had
    exactly them (then nothing is written)."""
    settings = read_settings(path)
    updated = with_ours(settings, plan)
    if updated == settings and path.exists():
        return False
    install_text(path, settings_text(updated))
    return True


def uninstall_hooks(path: Path) -> bool:
    """Take our hooks out of the settings file at ``path``; False if there were none."""
    settings = read_settings(path)
    updated = remove_ours(settings)
    if updated == settings:
        return False
    uninstall_text(path, given_back(updated))
    return True
