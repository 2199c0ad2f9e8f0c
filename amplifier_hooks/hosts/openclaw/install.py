"""Our plugin for OpenClaw: its folder, and its wiring in ``~/.openclaw/openclaw.json``.

OpenClaw 2026.9.6 loads a native plugin from a folder listed in ``plugins.load.paths``
and runs it when ``plugins.entries.<id>.enabled`` is true; ``plugins.entries.<id>.config``
is what the plugin gets as its settings, and ``plugins.entries.<id>.hooks.timeouts.
before_tool_call`` how long OpenClaw waits for it (milliseconds, at most 600000). A plugin
OpenClaw did not bundle gets its conversation hooks (`CONVERSATION_HOOKS`) only when
``plugins.entries.<id>.hooks.allowConversationAccess`` is true: install sets it when the
bundle listens to one of them. It is home-level only: ``$OPENCLAW_STATE_DIR``, else
``~/.openclaw``.

Install writes the plugin into ``<state>/amplifier-hooks/plugin`` and inserts its wiring
into the user's file as text (`amplifier_hooks.hosts.openclaw.config_text`), recording
each insertion in ``<state>/amplifier-hooks/install.json``; uninstall undoes them, so a
file nobody touched in between is byte for byte what install found. Running install again
with the same bundle changes nothing. What the person wrote stays theirs: a folder path or
an id in ``plugins.allow`` already there is not added, so uninstall leaves it, and an entry
under our id that install did not write is refused, not replaced (`Taken`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.footprint import write_text
from amplifier_hooks.hosts.launch import HOOK_SCRIPT, HOOK_SCRIPT_NAME
from amplifier_hooks.hosts.openclaw import OPENCLAW_DIALECT
from amplifier_hooks.hosts.openclaw.config_text import (
    EMPTY,
    PARTS,
    Edit,
    Taken,
    place,
    read_tree,
    take_out,
    undo,
)
from amplifier_hooks.hosts.openclaw.json5 import Json5Error
from amplifier_hooks.private import FILE_MODE, make_dirs

__all__ = [
    "CONVERSATION_HOOKS",
    "PLUGIN_ID",
    "OpenClawPlaces",
    "OpenClawPlan",
    "OpenClawReport",
    "hook_budget_ms",
    "install_openclaw",
    "uninstall_openclaw",
]

PLUGIN_ID = "amplifier-hooks"
PLUGIN_SOURCE = Path(__file__).resolve().parent / "plugin"
PLUGIN_FILES = ("index.js", "package.json", "openclaw.plugin.json")
MAX_BUDGET_MS = 600_000
"""The longest ``hooks.timeouts.before_tool_call`` OpenClaw takes."""
MARGIN_S = 30.0
"""Seconds beyond the longest question: the queue's look for an approver, a server's cold
start, the call itself."""
DEFAULT_QUESTION_S = 300.0
CONVERSATION_HOOKS = frozenset({"before_prompt_build", "agent_end"})
"""Our hooks that OpenClaw drops at load for a plugin it did not bundle unless the entry's
``hooks.allowConversationAccess`` is true (it says so only in the gateway's log)."""


@dataclass(frozen=True)
class OpenClawPlaces:
    """OpenClaw's config file and our folder beside it."""

    config: Path
    state: Path

    @property
    def ours(self) -> Path:
        return self.state / PLUGIN_ID

    @property
    def plugin(self) -> Path:
        return self.ours / "plugin"

    @property
    def record(self) -> Path:
        return self.ours / "install.json"

    @classmethod
    def find(cls, environ: Mapping[str, str] | None = None) -> OpenClawPlaces:
        env = os.environ if environ is None else environ
        home = Path(env.get("HOME") or Path.home())
        given = env.get("OPENCLAW_STATE_DIR")
        state = Path(given) if given else home / ".openclaw"
        config = env.get("OPENCLAW_CONFIG_PATH")
        return cls(Path(config) if config else state / "openclaw.json", state)


def hook_budget_ms(bundle: Path) -> int:
    """OpenClaw's budget for our ``before_tool_call``: the bundle's longest question
    (``approval_timeout``, a rule's ``timeout``; 300 s when none says) plus `MARGIN_S`,
    in milliseconds, at most `MAX_BUDGET_MS`."""
    longest = DEFAULT_QUESTION_S
    for entry in load_bundle(bundle).hooks:
        for seconds in _timeouts(entry.config):
            longest = max(longest, seconds)
    return int(min(MAX_BUDGET_MS, (longest + MARGIN_S) * 1000))


def _timeouts(config: object) -> list[float]:
    found: list[float] = []
    if isinstance(config, Mapping):
        for key, value in config.items():
            if key in ("approval_timeout", "timeout") and isinstance(value, int | float):
                if not isinstance(value, bool) and value > 0:
                    found.append(float(value))
            else:
                found += _timeouts(value)
    elif isinstance(config, list):
        for item in config:
            found += _timeouts(item)
    return found


@dataclass(frozen=True)
class OpenClawPlan:
    """What to install: the bundle, the hooks to register, and where answers come from."""

    bundle: Path
    events: tuple[str, ...]
    budget_ms: int
    url: str | None = None
    token_file: Path | None = None
    executable: str = sys.executable

    def settings(self) -> dict[str, Any]:
        """The plugin's settings (``plugins.entries.<id>.config``)."""
        config: dict[str, Any] = {
            "bundle": str(self.bundle),
            "python": self.executable,
            "script": HOOK_SCRIPT,
            "budgetMs": self.budget_ms,
            "events": list(self.events),
        }
        if self.url:
            config["url"] = self.url
            if self.token_file is not None:
                config["tokenFile"] = str(self.token_file)
        return config

    def entry(self) -> dict[str, Any]:
        """Our ``plugins.entries.<id>``: conversation access only when a hook needs it."""
        hooks: dict[str, Any] = {"timeouts": {"before_tool_call": self.budget_ms}}
        if CONVERSATION_HOOKS.intersection(self.events):
            hooks["allowConversationAccess"] = True
        return {"enabled": True, "hooks": hooks, "config": self.settings()}


def plan_events(handled: list[str]) -> tuple[str, ...]:
    """The OpenClaw hooks to register for a bundle whose handlers listen to ``handled``:
    always ``before_tool_call`` (the guard), and ``session_end`` to close sessions."""
    found = {OPENCLAW_DIALECT.host_event_of(e) for e in handled}
    found |= {"before_tool_call", "session_end"}
    return tuple(sorted(e for e in found if e is not None))


@dataclass(frozen=True)
class OpenClawReport:
    """What an install or uninstall changed, and what stops OpenClaw from running us."""

    config: Path
    changed: bool
    installed: bool
    problems: tuple[str, ...] = ()

    def status(self) -> str:
        """One line: will OpenClaw run the plugin, and if not, why."""
        if not self.installed:
            return "status: amplifier-hooks is not installed for OpenClaw here"
        if self.problems:
            return "status: WILL NOT RUN: " + "; ".join(self.problems)
        return (
            "status: OpenClaw will run the amplifier-hooks plugin "
            "(never under `openclaw agent exec`, which loads no plugin)"
        )


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read: {exc}") from None


def _write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically, keeping its mode (0600 when new: the
    file holds API keys) and writing through a symlink to the file it points at."""
    write_text(path.resolve(), text)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _load_record(places: OpenClawPlaces) -> dict[str, Any] | None:
    try:
        record = json.loads(places.record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _without_ours(text: str, places: OpenClawPlaces, record: dict[str, Any] | None) -> str:
    """``text`` as it was before our install: its insertions undone when the file is
    as install left it, else our parts found and taken out."""
    folder = str(places.plugin)
    if record is not None and record.get("after") == _digest(text):
        edits = [Edit(int(at), str(inserted)) for at, inserted in record.get("edits", [])]
        undone = undo(text, edits)
        if undone is not None:
            return undone
    created = [tuple(p) for p in record.get("created", [])] if record else []
    try:
        return take_out(text, PLUGIN_ID, folder, created, _added(record), _ours)
    except Json5Error as exc:
        raise SettingsError(f"{places.config}: not JSON5 OpenClaw can read: {exc}") from None


def _added(record: dict[str, Any] | None) -> tuple[str, ...]:
    """The parts of the file install added (`PARTS`). With no record, nothing is known to
    be install's but an entry that is ours by its content (`_ours`); a record without
    ``added`` counts every part as added."""
    if record is None:
        return ("entry",)
    added = record.get("added", PARTS)
    return tuple(str(part) for part in added) if isinstance(added, list | tuple) else PARTS


def _ours(entry: object) -> bool:
    """Whether a ``plugins.entries.<id>`` value is one install wrote: its settings name
    our hook script (wherever the package is installed). Any other is the person's."""
    config = entry.get("config") if isinstance(entry, dict) else None
    script = config.get("script") if isinstance(config, dict) else None
    return isinstance(script, str) and os.path.basename(script) == HOOK_SCRIPT_NAME


def install_openclaw(places: OpenClawPlaces, plan: OpenClawPlan) -> OpenClawReport:
    """Write the plugin and wire it (nothing changes when it is already so)."""
    current = _read(places.config)
    record = _load_record(places)
    base = EMPTY if current is None else _without_ours(current, places, record)
    if current is not None and not base.strip():
        raise SettingsError(f"{places.config}: the file is empty; OpenClaw reads a JSON5 object")
    try:
        placed = place(base, PLUGIN_ID, str(places.plugin), plan.entry())
    except Taken:
        raise SettingsError(
            f"{places.config}: plugins.entries.{PLUGIN_ID} is already there and was not "
            "written by `amplifier-hooks openclaw install`; install neither replaces nor "
            "merges into it: move it away (or remove it) first"
        ) from None
    except Json5Error as exc:
        raise SettingsError(f"{places.config}: not JSON5 OpenClaw can read: {exc}") from None
    state_existed = places.state.exists()
    plugin_changed = _write_plugin(places)
    new_file = current is None or (record is not None and record.get("new_file") is True)
    new_record = {
        "config": str(places.config),
        "after": _digest(placed.text),
        "edits": [[e.at, e.text] for e in placed.edits],
        "created": [list(p) for p in placed.created],
        "added": list(placed.added),
        "new_file": new_file,
        "new_state": record.get("new_state") is True if record is not None else not state_existed,
    }
    changed = placed.text != current or plugin_changed or record != new_record
    if placed.text != current:
        _write(places.config, placed.text)
    if record != new_record:
        _write(places.record, json.dumps(new_record, indent=2) + "\n")
    return OpenClawReport(places.config, changed, True, tuple(wiring_problems(placed.text)))


def _write_plugin(places: OpenClawPlaces) -> bool:
    changed = False
    make_dirs(places.plugin)
    for name in PLUGIN_FILES:
        wanted = (PLUGIN_SOURCE / name).read_bytes()
        target = places.plugin / name
        try:
            if target.read_bytes() == wanted:
                continue
        except FileNotFoundError:
            pass
        _write_private(target, wanted)
        changed = True
    return changed


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, 0600 whatever the umask (an older copy of ours is
    tightened): the plugin is code OpenClaw runs, so no one else may change it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, FILE_MODE)
    with os.fdopen(fd, "wb") as stream:
        os.fchmod(stream.fileno(), FILE_MODE)
        stream.write(data)


def uninstall_openclaw(places: OpenClawPlaces) -> OpenClawReport:
    """Take the wiring out of the config and remove our folder."""
    current = _read(places.config)
    record = _load_record(places)
    changed = False
    if current is not None:
        base = _without_ours(current, places, record)
        if base != current:
            changed = True
            if record is not None and record.get("new_file") is True and base == EMPTY:
                places.config.unlink()
            else:
                _write(places.config, base)
    if places.ours.exists():
        shutil.rmtree(places.ours)
        changed = True
    if record is not None and record.get("new_state") is True:
        with contextlib.suppress(OSError):
            places.state.rmdir()  # only if empty: OpenClaw keeps its own state there
    return OpenClawReport(places.config, changed, False)


def wiring_problems(text: str) -> list[str]:
    """What in the config stops OpenClaw from loading our plugin (empty: nothing)."""
    try:
        tree = read_tree(text)
    except Json5Error as exc:
        return [f"the config is not JSON5 OpenClaw can read: {exc}"]
    plugins = tree.value.get("plugins")
    plugins = plugins if isinstance(plugins, dict) else {}
    problems = []
    if plugins.get("enabled") is False:
        problems.append("plugins.enabled is false: OpenClaw loads no plugin")
    allow = plugins.get("allow")
    if isinstance(allow, list) and PLUGIN_ID not in allow:
        problems.append(f"plugins.allow does not name {PLUGIN_ID!r}")
    deny = plugins.get("deny")
    if isinstance(deny, list) and PLUGIN_ID in deny:
        problems.append(f"plugins.deny names {PLUGIN_ID!r}")
    entries = plugins.get("entries")
    entry = entries.get(PLUGIN_ID) if isinstance(entries, dict) else None
    if isinstance(entry, dict) and entry.get("enabled") is False:
        problems.append(f"plugins.entries.{PLUGIN_ID}.enabled is false")
    return problems
