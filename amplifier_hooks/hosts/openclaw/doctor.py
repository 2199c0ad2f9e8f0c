"""``doctor`` for OpenClaw: is our plugin wired, with which bundle, will it run, and what
OpenClaw leaves unguarded whatever we do.

OpenClaw has no hooks file to read commands from: the wiring is our entry in
``~/.openclaw/openclaw.json`` (JSON5) and the plugin's folder. The probe loads the
installed plugin on the Node that would run OpenClaw (`PROBE_SCRIPT`) and sends it the
``exec`` of ``true``, so what it shows is the plugin's own answer.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts.openclaw import OPENCLAW_PROFILE
from amplifier_hooks.hosts.openclaw.install import (
    CONVERSATION_HOOKS,
    PLUGIN_ID,
    OpenClawPlaces,
    wiring_problems,
)
from amplifier_hooks.hosts.openclaw.json5 import Json5Error, parse
from amplifier_hooks.hosts.openclaw.node import node_problem, node_program
from amplifier_hooks.hosts.probe_run import run_probe

__all__ = [
    "PROBE_SCRIPT",
    "UNGUARDED",
    "PluginProbe",
    "PluginState",
    "conversation_problem",
    "plugin_state",
    "probe_plugin",
]

PROBE_SCRIPT = Path(__file__).resolve().parent / "probe.mjs"

UNGUARDED = (
    "`openclaw agent exec` runs no plugin: its tool calls are never checked",
    "plugins.enabled: false, plugins.deny naming amplifier-hooks, or a plugins.allow list "
    "without it turn the plugin off",
    "a plugins.load.paths folder that is missing fails open: OpenClaw loads nothing from "
    "it and says nothing",
)
"""What no plugin of ours can close (docs/hosts.md, "What no plugin of ours can close")."""


@dataclass(frozen=True)
class PluginState:
    """Our plugin as OpenClaw's config wires it (`amplifier_hooks.hosts.doctor` shows it)."""

    file: Path
    events: tuple[str, ...] = ()
    bundles: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    settings: Mapping[str, Any] | None = None
    """The plugin's settings, when they can be read (what the probe loads it with)."""
    config: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class PluginProbe:
    """One call of the installed plugin's ``before_tool_call``, and what came back."""

    exit_code: int | None
    stdout: str
    stderr: str
    reading: str
    ok: bool


def _entry(tree: Any) -> dict[str, Any] | None:
    plugins = tree.get("plugins") if isinstance(tree, dict) else None
    entries = plugins.get("entries") if isinstance(plugins, dict) else None
    entry = entries.get(PLUGIN_ID) if isinstance(entries, dict) else None
    return entry if isinstance(entry, dict) else None


def _load_paths(tree: dict[str, Any]) -> list[str]:
    plugins = tree.get("plugins")
    load = plugins.get("load") if isinstance(plugins, dict) else None
    paths = load.get("paths") if isinstance(load, dict) else None
    return [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []


def conversation_problem(entry: Mapping[str, Any]) -> str | None:
    """Why OpenClaw drops the conversation hooks our entry registers (None: it runs them)."""
    settings = entry.get("config")
    events = settings.get("events") if isinstance(settings, Mapping) else None
    wanted = sorted(CONVERSATION_HOOKS.intersection(events if isinstance(events, list) else []))
    hooks = entry.get("hooks")
    allowed = isinstance(hooks, Mapping) and hooks.get("allowConversationAccess") is True
    if not wanted or allowed:
        return None
    return (
        f"plugins.entries.{PLUGIN_ID}.hooks.allowConversationAccess is not true: OpenClaw "
        f"drops our {', '.join(wanted)} hooks, so no context reaches the prompt "
        "(install again)"
    )


def plugin_state(environ: Mapping[str, str]) -> PluginState | None:
    """Our plugin in OpenClaw's config, or None when it is not wired there."""
    places = OpenClawPlaces.find(environ)
    try:
        text = places.config.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        return PluginState(places.config, problems=(f"{places.config}: cannot read: {exc}",))
    try:
        tree = parse(text).value
    except Json5Error as exc:
        problem = f"{places.config}: not JSON5 OpenClaw can read: {exc}"
        return PluginState(places.config, problems=(problem,))
    entry = _entry(tree)
    if entry is None:
        return None
    given = entry.get("config")
    settings: dict[str, Any] = given if isinstance(given, dict) else {}
    events = tuple(e for e in settings.get("events", []) if isinstance(e, str))
    bundle = settings.get("bundle")
    problems = wiring_problems(text)
    notes = list(UNGUARDED)
    folders = _load_paths(tree)
    if str(places.plugin) not in folders:
        problems.append(f"plugins.load.paths does not list {places.plugin}")
    if not (places.plugin / "index.js").is_file():
        problems.append(f"the plugin's folder {places.plugin} is gone: OpenClaw runs without it")
    for folder in folders:
        if folder != str(places.plugin) and not os.path.isdir(os.path.expanduser(folder)):
            notes.append(f"plugins.load.paths lists {folder}, which is missing (fails open)")
    if not isinstance(bundle, str) or not os.path.isfile(bundle):
        problems.append(f"the bundle {bundle} does not exist")
    python = settings.get("python")
    if not isinstance(python, str) or not os.access(python, os.X_OK):
        problems.append(f"the plugin's Python {python} does not exist (install again)")
    node = node_problem(environ)
    if node is not None:
        problems.append(node)
    dropped = conversation_problem(entry)
    if dropped is not None:
        notes.insert(0, dropped)  # the guard still runs: a note, not a problem
    return PluginState(
        places.config,
        events,
        (bundle,) if isinstance(bundle, str) else (),
        tuple(problems),
        tuple(notes),
        settings,
        tree,
    )


def probe_plugin(
    state: PluginState, environ: Mapping[str, str], timeout: float
) -> PluginProbe | None:
    """Call the installed plugin's ``before_tool_call`` once, on the Node that would run
    OpenClaw, with the ``exec`` of ``true`` (None: there is no plugin or Node to probe)."""
    places = OpenClawPlaces.find(environ)
    if state.settings is None or not (places.plugin / "index.js").is_file():
        return None
    if node_problem(environ) is not None:
        return None
    config = state.config or {}
    name = OPENCLAW_PROFILE.probe_event
    node = node_program(environ) or shutil.which("node", path=environ.get("PATH")) or "node"
    agents = config.get("agents") if isinstance(config.get("agents"), dict) else {}
    request = {
        "pluginConfig": dict(state.settings),
        "config": {"agents": agents},
        "hook": name,
        "event": {"toolName": "exec", "params": {"command": "true"}},
        "ctx": {"sessionId": "amplifier-hooks-doctor", "agentId": "doctor"},
    }
    argv = [node, str(PROBE_SCRIPT), str(places.plugin / "index.js")]
    try:
        done = run_probe(argv, cwd=None, env=environ, payload=json.dumps(request), timeout=timeout)
    except OSError as exc:
        return PluginProbe(None, "", str(exc), f"cannot run {node}: {exc}", False)
    if done is None:
        return PluginProbe(None, "", "", f"no answer within {timeout:g} s", False)
    reading, ok = _reading(done.returncode, done.stdout, done.stderr)
    return PluginProbe(done.returncode, done.stdout, done.stderr, reading, ok)


def _reading(code: int, stdout: str, stderr: str) -> tuple[str, bool]:
    if code != 0:
        return f"the plugin did not load (exit {code}): {stderr.strip()[-300:]}", False
    try:
        result = json.loads(stdout)["result"]
    except (ValueError, KeyError, TypeError):
        return f"an answer that is not JSON: {stdout[:200]!r}", False
    if result is None:
        return "no objection (OpenClaw's own rules decide)", True
    if isinstance(result, dict) and result.get("block") is True:
        reason = str(result.get("blockReason", ""))
        # Our own failure to answer is a block too, but not a plugin that works.
        return f"denied: {reason}", not reason.startswith("amplifier-hooks could not check")
    if isinstance(result, dict) and "requireApproval" in result:
        return f"asks the person: {result['requireApproval'].get('description', '')}", True
    return f"answers {json.dumps(result)[:200]}", True
