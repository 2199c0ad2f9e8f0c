"""``amplifier-hooks doctor``: what is wired into each agent CLI, and whether it will run.

For every host in `HOSTS`, both places its hooks can live (the user's file and the
project's, from `HostProfile.settings`) are read; where our hooks are found, the report
says which events, which bundle, and what would stop the host from running them: the
host's program not on PATH, our interpreter or the bundle gone, Codex's hook trust
(`amplifier_hooks.hosts.codex.install`), a project the host must trust first. Then one
harmless probe goes through the installed command itself: the host's own guarded tool
call for ``true`` (`HostProfile.probe`), and its answer is shown as the host would read it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts.base import HostAdapter
from amplifier_hooks.hosts.claude_code.install import SettingsError, is_ours
from amplifier_hooks.hosts.cline.doctor import cline_wirings
from amplifier_hooks.hosts.codex.install import CodexPlaces, hook_statuses, project_trusted
from amplifier_hooks.hosts.doctor_records import PROBE_TIMEOUT, Probe, Scope, Wiring
from amplifier_hooks.hosts.launch import HOOK_SCRIPT_NAME, our_argv
from amplifier_hooks.hosts.openclaw import OPENCLAW_PROFILE
from amplifier_hooks.hosts.openclaw.doctor import plugin_state, probe_plugin
from amplifier_hooks.hosts.opencode.doctor import opencode_wirings
from amplifier_hooks.hosts.probe_run import json_answer, judged, run_probe
from amplifier_hooks.hosts.profile import HostProfile
from amplifier_hooks.hosts.registry import HOSTS, host_named

__all__ = [
    "PROBE_TIMEOUT",
    "Probe",
    "Wiring",
    "diagnose",
    "installed_wiring",
    "our_bundles",
    "probe",
    "settings_files",
]


def _expand(text: str, environ: Mapping[str, str]) -> str:
    home = environ.get("HOME") or str(Path.home())
    if text.startswith("~/"):
        text = home + text[1:]
    for name, value in environ.items():
        text = text.replace(f"${name}", value)
    return text


def settings_files(
    profile: HostProfile, project: Path, environ: Mapping[str, str]
) -> list[tuple[Scope, Path]]:
    """The files ``profile``'s host reads hooks from, for ``project`` (existing or not)."""
    places = profile.settings
    found: list[tuple[Scope, Path]] = []
    user = places.user
    if places.home_variable and not environ.get(places.home_variable):
        user = user.replace(f"${places.home_variable}", f"~/.{profile.binary}")
    user = _expand(user, environ)
    if os.path.isabs(user) and "$" not in user and " " not in user:
        found.append(("user", Path(user)))
    if places.project is not None:
        found.append(("project", project / places.project))
    return found


def _handlers(settings: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(event, handler) of every hook in a settings file: Claude Code's groups of
    handlers, or Copilot CLI's handlers listed directly."""
    found = []
    hooks = settings.get("hooks")
    for event, entries in (hooks or {}).items() if isinstance(hooks, dict) else ():
        for entry in entries if isinstance(entries, list) else ():
            inner = entry.get("hooks") if isinstance(entry, dict) else None
            for handler in inner if isinstance(inner, list) else [entry]:
                if isinstance(handler, dict):
                    found.append((event, handler))
    return found


def _command(handler: Mapping[str, Any]) -> str | None:
    value = handler.get("command", handler.get("bash"))
    return value if isinstance(value, str) else None


def _ours(handler: Mapping[str, Any]) -> bool:
    command = _command(handler)
    return is_ours(handler) or (command is not None and is_ours({"command": command}))


def _after(words: list[str], flag: str) -> str | None:
    return words[words.index(flag) + 1] if flag in words[:-1] else None


def _our_argv(command: str) -> list[str]:
    """Our command line inside an installed command (the wrapper's arguments end with it)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return []
    return our_argv(words)


def _read(path: Path) -> dict[str, Any] | str:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return f"{path}: cannot read: {exc}"
    return loaded if isinstance(loaded, dict) else f"{path}: not a JSON object"


def our_bundles(path: Path) -> tuple[str, ...]:
    """The bundles our hooks in the settings file at ``path`` run (none if unreadable)."""
    settings = _read(path)
    if isinstance(settings, str):
        return ()
    argvs = [_our_argv(_command(h) or "") for _, h in _handlers(settings) if _ours(h)]
    return tuple(sorted({b for argv in argvs if (b := _after(argv, "--bundle"))}))


def _wiring(
    adapter: HostAdapter, scope: Scope, path: Path, project: Path, environ: Mapping[str, str]
) -> Wiring | None:
    profile = adapter.profile
    settings = _read(path)
    if isinstance(settings, str):
        return Wiring(profile, scope, path, (), (), {}, problems=(settings,))
    ours = [(event, h) for event, h in _handlers(settings) if _ours(h)]
    if not ours:
        return None
    commands = {event: _command(h) or "" for event, h in ours}
    argvs = [_our_argv(c) for c in commands.values()]
    bundles = tuple(sorted({b for argv in argvs if (b := _after(argv, "--bundle"))}))
    problems: list[str] = []
    notes: list[str] = []
    path_variable = environ.get("PATH", os.defpath)
    if shutil.which(profile.binary, path=path_variable) is None:
        problems.append(f"{profile.binary!r} ({profile.package}) is not on PATH")
    for bundle in bundles:
        if not os.path.isfile(bundle):
            problems.append(f"the bundle {bundle} does not exist")
    for program in sorted({argv[0] for argv in argvs if argv}):
        if os.path.isabs(program) and not os.access(program, os.X_OK):
            problems.append(f"the hook's program {program} does not exist")
    for script in sorted({w for argv in argvs for w in argv if w.endswith(HOOK_SCRIPT_NAME)}):
        if not os.path.isfile(script):
            problems.append(f"the hook's script {script} does not exist (install again)")
    trust_problems, trust_notes = _trust(profile, scope, path, project, environ)
    return Wiring(
        profile,
        scope,
        path,
        tuple(sorted(commands)),
        bundles,
        commands,
        tuple(problems + trust_problems),
        tuple(notes + trust_notes),
    )


def installed_wiring(
    command: str, path: Path, project: Path, environ: Mapping[str, str] | None = None
) -> Wiring | None:
    """What doctor would say about our hooks in ``path`` of host ``command`` (the
    project's file if it is under ``project``, else the user's): `install` tells it too."""
    scope: Scope = "project" if path.is_relative_to(project) else "user"
    env = dict(os.environ if environ is None else environ)
    return _wiring(host_named(command), scope, path, project, env)


def _trust(
    profile: HostProfile, scope: Scope, path: Path, project: Path, environ: Mapping[str, str]
) -> tuple[list[str], list[str]]:
    """What the host's trust says about these hooks: (problems, notes)."""
    mechanism = profile.trust.mechanism
    if mechanism == "hook-hash":
        places = CodexPlaces.find(None if scope == "user" else project, environ)
        places = CodexPlaces(path, places.config_file, places.project)
        problems = []
        try:
            statuses = hook_statuses(places)
        except SettingsError as exc:
            return [str(exc)], []
        untrusted = sorted({h.event for h in statuses if h.status != "trusted"})
        if untrusted:
            problems.append(
                f"hooks untrusted ({', '.join(untrusted)}): Codex skips them without a word; "
                "run `amplifier-hooks codex install` again or trust them in Codex's /hooks"
            )
        config = places.config_file.read_text() if places.config_file.exists() else ""
        if scope == "project" and not project_trusted(config, project):
            problems.append(f"Codex reads {path} only in a project it trusts")
        return problems, []
    if scope == "project" and mechanism in ("folder", "workspace"):
        return [], [f"runs only in a trusted folder: {profile.trust.note}"]
    return [], []


def probe(wiring: Wiring, project: Path, environ: Mapping[str, str]) -> Probe | None:
    """Send the host's harmless guarded call through the installed command."""
    profile = wiring.profile
    command = wiring.commands.get(profile.probe_event)
    if command is None or not profile.probe:
        return None
    payload = json.dumps({**profile.probe, "cwd": str(project)})
    env = {**environ, "CLAUDE_PROJECT_DIR": str(project)}
    done = run_probe(["sh", "-c", command], cwd=project, env=env, payload=payload)
    return judged(profile.probe_event, done, partial(_reading, profile))


def _reading(profile: HostProfile, code: int, stdout: str, stderr: str) -> tuple[str, bool]:
    if code == profile.answers.blocking_exit and code != 0:
        return f"blocked (exit {code}): {stderr.strip()[-300:]}", True
    if code != 0:
        return f"failed (exit {code}): {stderr.strip()[-300:]}", False
    text = stdout.strip()
    if not text:
        return "no objection (the host's own rules decide)", True
    answer = json_answer(text)
    if isinstance(answer, str):
        return answer, False
    specific = answer.get("hookSpecificOutput")
    fields = {**answer, **(specific if isinstance(specific, dict) else {})}
    decision = fields.get("permissionDecision") or fields.get("decision")
    reason = fields.get("permissionDecisionReason") or fields.get("reason") or ""
    if decision in ("deny", "block"):
        return f"denied: {reason}", True
    if decision in ("allow", "approve"):
        return "allowed" + (f": {reason}" if reason else ""), True
    if decision == "ask":
        return f"asks the user: {reason}", True
    return "no objection (the host's own rules decide)", True


def diagnose(
    project: Path,
    environ: Mapping[str, str] | None = None,
    *,
    send_probe: bool = True,
) -> list[Wiring]:
    """Our hooks for every host, in the user's files and ``project``'s, each with what
    stops the host from running them and (``send_probe``) one probe's answer."""
    env = dict(os.environ if environ is None else environ)
    found = []
    for adapter in HOSTS:
        own = _own_reader(adapter.profile.name)
        if own is not None:
            found += own(project, env, send_probe=send_probe)
            continue
        for scope, path in settings_files(adapter.profile, project, env):
            wiring = _wiring(adapter, scope, path, project, env)
            if wiring is None:
                continue
            if send_probe and wiring.commands:
                wiring = _with_probe(wiring, probe(wiring, project, env))
            found.append(wiring)
    return found


def _own_reader(name: str) -> Callable[..., list[Wiring]] | None:
    """The reader of a host whose hooks are not JSON settings (a plugin, hook files)."""
    if name == "opencode":
        return opencode_wirings
    if name == "cline":
        return cline_wirings
    if name == "openclaw":
        return _openclaw_wirings
    return None


def _openclaw_wirings(
    project: Path, environ: Mapping[str, str], *, send_probe: bool
) -> list[Wiring]:
    """OpenClaw's plugin in ~/.openclaw/openclaw.json (home-level only: ``project`` is
    not read)."""
    state = plugin_state(environ)
    if state is None:
        return []
    found = probe_plugin(state, environ, PROBE_TIMEOUT) if send_probe else None
    event = OPENCLAW_PROFILE.probe_event
    probed = None
    if found is not None:
        probed = Probe(event, found.exit_code, found.stdout, found.stderr, found.reading, found.ok)
    return [
        Wiring(
            OPENCLAW_PROFILE,
            "user",
            state.file,
            state.events,
            state.bundles,
            {},
            state.problems,
            state.notes,
            probed,
        )
    ]


def _with_probe(wiring: Wiring, result: Probe | None) -> Wiring:
    return replace(wiring, probe=result)
