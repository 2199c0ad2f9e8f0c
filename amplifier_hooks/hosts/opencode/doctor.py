"""``doctor`` for OpenCode: our plugin, loaded in OpenCode's own runtime and probed.

OpenCode skips a plugin that fails to load with one log line, so reading the file is not
enough: the plugin is imported by the ``opencode`` binary itself, acting as the Bun it
is built on (``BUN_BE_BUN=1``), its init is called with the project, and its
``tool.execute.before`` gets the harmless probe (the shell running ``true``). What no
plugin can close -- ``opencode run --pure`` and ``OPENCODE_PURE`` -- is named in every
report, and is a problem when the variable is set here.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.doctor_records import Probe, Scope, Wiring
from amplifier_hooks.hosts.opencode import OPENCODE_PROFILE
from amplifier_hooks.hosts.opencode.install import MARKER, plugin_config, plugin_place
from amplifier_hooks.hosts.probe_run import each_scope, no_answer, run_probe

__all__ = ["UNGUARDED", "load_and_probe", "opencode_wirings"]

UNGUARDED = (
    "`opencode run --pure` and OPENCODE_PURE=1 load no plugin: nothing guards such a run",
    "a plugin that fails to load is skipped with one log line; this report loads ours in "
    "OpenCode's runtime to check",
)
"""OpenCode's paths around any plugin, said in every report."""

LOADER = """\
const [plugin, project] = process.argv.slice(2)
const said = (value) => console.log(JSON.stringify(value))
let hooks
try {
  const module = await import(plugin)
  hooks = await module.AmplifierHooks({ directory: project, worktree: project })
} catch (error) {
  said({ loaded: false, error: String(error && error.stack || error) })
  process.exit(0)
}
const probe = JSON.parse(process.env.AMPLIFIER_HOOKS_PROBE)
const output = { args: probe.args }
try {
  const input = { tool: probe.tool, sessionID: probe.sessionID, callID: probe.callID }
  await hooks["tool.execute.before"](input, output)
  said({ loaded: true, denied: false, args: output.args })
} catch (error) {
  said({ loaded: true, denied: true, reason: String(error && error.message || error) })
}
"""
"""Imports the plugin, calls its init and its ``tool.execute.before`` with the probe."""


def load_and_probe(
    binary: str, plugin: Path, project: Path, environ: Mapping[str, str]
) -> tuple[str | None, Probe]:
    """(why it fails to load or None, the probe's answer) of ``plugin`` in OpenCode."""
    profile = OPENCODE_PROFILE
    env = {**environ, "BUN_BE_BUN": "1", "AMPLIFIER_HOOKS_PROBE": json.dumps(profile.probe)}
    env.pop("OPENCODE_PURE", None)
    with tempfile.TemporaryDirectory(prefix="amplifier-hooks-doctor-") as folder:
        loader = Path(folder) / "load.mjs"
        loader.write_text(LOADER, encoding="utf-8")
        done = run_probe([binary, str(loader), str(plugin), str(project)], cwd=project, env=env)
    if done is None:
        return None, no_answer(profile.probe_event)
    event, code, stdout, stderr = profile.probe_event, done.returncode, done.stdout, done.stderr
    lines = done.stdout.strip().splitlines()
    try:
        said = json.loads(lines[-1]) if lines else None
    except ValueError:
        said = None
    if not isinstance(said, dict):
        why = f"OpenCode's runtime could not run it (exit {done.returncode}): "
        why += (done.stderr or done.stdout).strip()[-300:]
        return why, Probe(event, code, stdout, stderr, why, False)
    if not said.get("loaded"):
        why = f"it fails to load in OpenCode, which would skip it: {said.get('error', '')[:300]}"
        return why, Probe(event, code, stdout, stderr, why, False)
    if said.get("denied"):
        reading = f"denied: {said.get('reason', '')}"
    else:
        reading = "no objection (the host's own rules decide)"
    return None, Probe(event, code, stdout, stderr, reading, True)


def _wiring(
    scope: Scope, path: Path, project: Path, environ: Mapping[str, str], probe: bool
) -> Wiring | None:
    profile = OPENCODE_PROFILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        return Wiring(profile, scope, path, (), (), {}, problems=(f"{path}: cannot read: {exc}",))
    if MARKER not in text:
        return None
    try:
        config = plugin_config(text)
    except SettingsError as exc:
        return Wiring(profile, scope, path, (), (), {}, problems=(f"{path}: {exc}",))
    events: tuple[str, ...] = ("tool.execute.before",)
    if config.get("after"):
        events = ("tool.execute.after", *events)
    bundle = str(config.get("bundle") or "")
    problems: list[str] = []
    binary = shutil.which(profile.binary, path=environ.get("PATH", os.defpath))
    if binary is None:
        problems.append(f"{profile.binary!r} ({profile.package}) is not on PATH")
    if environ.get("OPENCODE_PURE"):
        problems.append("OPENCODE_PURE is set here: OpenCode loads no plugin")
    if not os.path.isfile(bundle):
        problems.append(f"the bundle {bundle} does not exist")
    for what in ("python", "script"):
        program = str(config.get(what) or "")
        if not os.path.isfile(program):
            problems.append(f"the hook's {what} {program} does not exist (install again)")
    notes = list(UNGUARDED)
    if config.get("url"):
        notes.append(f"asks the server at {config['url']}")
    found = None
    if probe and binary is not None:
        failure, found = load_and_probe(binary, path, project, environ)
        if failure is not None:
            problems.append(failure)
    commands = {event: str(path) for event in events}
    return Wiring(
        profile, scope, path, events, (bundle,), commands, tuple(problems), tuple(notes), found
    )


def opencode_wirings(
    project: Path, environ: Mapping[str, str], *, send_probe: bool
) -> list[Wiring]:
    """Our plugin in the user's config folder and ``project``'s, each checked."""

    def check(scope: Scope, global_: bool) -> Wiring | None:
        _, path = plugin_place(project, global_, environ)
        return _wiring(scope, path, project, environ, send_probe)

    return each_scope(check)
