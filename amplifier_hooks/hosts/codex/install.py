"""Our hooks in a Codex hooks.json, and their trust in ``$CODEX_HOME/config.toml``.

Codex 0.169 reads ``$CODEX_HOME/hooks.json`` (``~/.codex`` by default) for every
project, and a project's ``.codex/hooks.json`` only in a project it trusts
(``[projects."<dir>"] trust_level = "trusted"``). Both have Claude Code's shape, so the
merge is Claude Code's (`amplifier_hooks.hosts.claude_code.install`: the user's own
hooks stay, ours are found by what they run, twice is the same as once). Our command is
wrapped fail-closed on the events that guard (`amplifier_hooks.hosts.wrapper`), and each
of our hooks' hash is recorded as trusted (`amplifier_hooks.hosts.codex.trust`), since
Codex silently skips a hook it does not trust. Codex files that trust by the hook's
position, so ours is trusted at the free positions around its own too (`_ours_trust`):
a hook the user adds before ours does not leave ours untrusted.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from amplifier_hooks.hosts.claude_code.install import (
    SettingsError,
    given_back,
    is_ours,
    read_settings,
    remove_ours,
    settings_text,
)
from amplifier_hooks.hosts.codex import CODEX_PROFILE
from amplifier_hooks.hosts.codex.trust import (
    HookTrust,
    TrustError,
    hook_hash,
    hook_key,
    trust_states,
    user_trust_tables,
    with_trust,
    without_trust,
)
from amplifier_hooks.hosts.footprint import install_text, uninstall_text
from amplifier_hooks.hosts.wrapper import CommandPlan

__all__ = [
    "CodexPlaces",
    "CodexPlan",
    "HookStatus",
    "InstallReport",
    "codex_home",
    "hook_statuses",
    "install_codex",
    "project_trusted",
    "uninstall_codex",
]

TrustStatus = Literal["trusted", "untrusted", "modified"]


def codex_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$CODEX_HOME``, else ``~/.codex``."""
    env = os.environ if environ is None else environ
    home = env.get("CODEX_HOME")
    return Path(home) if home else Path(env.get("HOME") or Path.home()) / ".codex"


@dataclass(frozen=True)
class CodexPlaces:
    """The files one install changes: the hooks.json and the config.toml of trust."""

    hooks_file: Path
    config_file: Path
    project: Path | None = None
    """The project whose .codex/hooks.json this is; None: the user's own."""

    @classmethod
    def find(
        cls, project: Path | None = None, environ: Mapping[str, str] | None = None
    ) -> CodexPlaces:
        home = Path(os.path.abspath(codex_home(environ)))
        config = home / "config.toml"
        if project is None:
            return cls(home / "hooks.json", config)
        root = Path(os.path.abspath(project))
        return cls(root / ".codex" / "hooks.json", config, root)


class CodexPlan(CommandPlan):
    """What to install: the bundle and the Codex events to wire."""

    profile = CODEX_PROFILE

    def handler(self, event: str) -> dict[str, Any]:
        """Our hook handler for ``event``: fail-closed where the event guards."""
        command, timeout = self.command(event)
        return {"type": "command", "command": command, "timeout": timeout}


@dataclass(frozen=True)
class HookStatus:
    """One of our hooks in a hooks.json, and whether Codex trusts it."""

    event: str
    key: str
    hash: str
    status: TrustStatus


@dataclass(frozen=True)
class InstallReport:
    """What an install or uninstall changed, and what the user must still do."""

    hooks_changed: bool
    trust_changed: bool
    hooks: tuple[HookStatus, ...] = ()
    moved: tuple[str, ...] = field(default=())
    """Keys of the user's own hooks whose position (so their trust key) changed: Codex
    will ask to trust them again."""
    project_trusted: bool | None = None
    """For a project's hooks.json: whether Codex trusts the project (None: user-level)."""


def _handlers(settings: Mapping[str, Any], hooks_file: Path) -> list[tuple[bool, str, str, str]]:
    """(ours, event, key, hash) of every command handler in ``settings``."""
    found = []
    hooks = settings.get("hooks") or {}
    for event, groups in hooks.items():
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                continue
            for h, handler in enumerate(handlers):
                if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
                    continue
                key = hook_key(str(hooks_file), event, g, h)
                digest = hook_hash(event, group.get("matcher"), handler)
                found.append((is_ours(handler), event, key, digest))
    return found


SPARE_POSITIONS = 4
"""Group positions above each of our hooks' own whose key is trusted for it too."""


def _ours_trust(
    settings: Mapping[str, Any], hooks_file: Path, users_keys: set[str]
) -> list[HookTrust]:
    """Trust entries for our hooks. Codex keys a hook's trust by its position, so a
    group the user puts before ours would leave ours untrusted, skipped without a word.
    An entry trusts only a hook with our hash, wherever its key points, so each of ours
    is trusted at its own key and at the free positions around it: below (a hook of the
    user's that goes away moves ours down) and ``SPARE_POSITIONS`` above (one added
    before ours moves it up). A key that is the user's (``users_keys``: a hook of theirs
    is there, or their config.toml has a table for it) is left to them, unless it is the
    one our hook is at."""
    entries: dict[str, HookTrust] = {}
    for ours, event, key, digest in _handlers(settings, hooks_file):
        if not ours:
            continue
        entries[key] = HookTrust(key, digest)
        group, handler = (int(n) for n in key.rsplit(":", 2)[1:])
        for spare in range(group + SPARE_POSITIONS + 1):
            other = hook_key(str(hooks_file), event, spare, handler)
            if other not in users_keys and other not in entries:
                entries[other] = HookTrust(other, digest)
    return list(entries.values())


def _users_keys(settings: Mapping[str, Any], hooks_file: Path, config: str) -> set[str]:
    """Keys that are the user's: where a hook of theirs is, or a table of theirs (outside
    our block) in config.toml."""
    held = {key for ours, _, key, _ in _handlers(settings, hooks_file) if not ours}
    return held | set(trust_states(without_trust(config)))


def _users_trust_in_our_block(
    settings: Mapping[str, Any], hooks_file: Path, config: str
) -> list[HookTrust]:
    """Entries of our block that now trust a hook of the user's: Codex wrote the user's
    answer to its trust prompt into the table that key had (one of ours)."""
    outside = trust_states(without_trust(config))
    current = {key: digest for ours, _, key, digest in _handlers(settings, hooks_file) if not ours}
    return [
        HookTrust(key, digest)
        for key, digest in trust_states(config).items()
        if key not in outside and current.get(key) == digest
    ]


def _moved(before: Mapping[str, Any], after: Mapping[str, Any], hooks_file: Path) -> list[str]:
    """Keys of the user's hooks that are at another position in ``after``."""
    old = [(e, d, k) for ours, e, k, d in _handlers(before, hooks_file) if not ours]
    new = [(e, d, k) for ours, e, k, d in _handlers(after, hooks_file) if not ours]
    pairs = zip(old, new, strict=True)  # the same hooks, in the same order
    return sorted({k_old for (_, _, k_old), (_, _, k_new) in pairs if k_old != k_new})


def _read_config(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read: {exc}") from None


def project_trusted(config_text: str, project: Path) -> bool:
    """Whether Codex's config trusts ``project`` (so it reads its .codex/hooks.json)."""
    try:
        projects = tomllib.loads(config_text).get("projects", {})
    except tomllib.TOMLDecodeError:
        return False
    entry = projects.get(str(project)) if isinstance(projects, dict) else None
    return isinstance(entry, dict) and entry.get("trust_level") == "trusted"


def hook_statuses(places: CodexPlaces) -> tuple[HookStatus, ...]:
    """Our hooks in ``places.hooks_file`` and whether config.toml trusts each."""
    settings = read_settings(places.hooks_file)
    try:
        states = trust_states(_read_config(places.config_file), str(places.config_file))
    except TrustError as exc:
        raise SettingsError(str(exc)) from None
    statuses = []
    for ours, event, key, digest in _handlers(settings, places.hooks_file):
        if not ours:
            continue
        recorded = states.get(key)
        status: TrustStatus = (
            "trusted" if recorded == digest else "untrusted" if recorded is None else "modified"
        )
        statuses.append(HookStatus(event, key, digest, status))
    return tuple(statuses)


def _write_trust(places: CodexPlaces, settings: Mapping[str, Any]) -> bool:
    """Rewrite our block for the hooks in ``settings``, keeping the user's trust."""
    text = _read_config(places.config_file)
    hooks_file = places.hooks_file
    try:
        kept = _users_trust_in_our_block(settings, hooks_file, text)
        base = user_trust_tables(without_trust(text), kept)
        entries = _ours_trust(settings, hooks_file, _users_keys(settings, hooks_file, base))
        updated = with_trust(base, entries, str(places.config_file))
    except TrustError as exc:
        raise SettingsError(str(exc)) from None
    if updated == text:
        return False
    install_text(places.config_file, updated)
    return True


def install_codex(places: CodexPlaces, plan: CodexPlan) -> InstallReport:
    """Merge our hooks into ``places.hooks_file`` and record their trust."""
    settings = read_settings(places.hooks_file)
    updated = remove_ours(settings)
    hooks = updated.setdefault("hooks", {})
    for event in plan.events:
        hooks.setdefault(event, []).append({"hooks": [plan.handler(event)]})
    hooks_changed = updated != settings or not places.hooks_file.exists()
    if hooks_changed:
        install_text(places.hooks_file, settings_text(updated))
    trust_changed = _write_trust(places, updated)
    return _report(
        places, hooks_changed, trust_changed, _moved(settings, updated, places.hooks_file)
    )


def uninstall_codex(places: CodexPlaces) -> InstallReport:
    """Take our hooks out of ``places.hooks_file`` and their trust out of config.toml."""
    settings = read_settings(places.hooks_file)
    updated = remove_ours(settings)
    hooks_changed = updated != settings
    if hooks_changed:
        uninstall_text(places.hooks_file, given_back(updated))
    text = _read_config(places.config_file)
    try:
        kept = _users_trust_in_our_block(updated, places.hooks_file, text) if text else []
    except TrustError as exc:
        raise SettingsError(str(exc)) from None
    stripped = user_trust_tables(without_trust(text), kept) if text else text
    trust_changed = stripped != text
    if trust_changed:
        uninstall_text(places.config_file, stripped if stripped.strip() else None)
    return _report(
        places, hooks_changed, trust_changed, _moved(settings, updated, places.hooks_file)
    )


def _report(places: CodexPlaces, hooks: bool, trust: bool, moved: list[str]) -> InstallReport:
    trusted = None
    if places.project is not None:
        trusted = project_trusted(_read_config(places.config_file), places.project)
    return InstallReport(hooks, trust, hook_statuses(places), tuple(moved), trusted)
