"""``doctor`` for Cline: our hook files in ``~/.cline/hooks`` and the project's
``.cline/hooks``, which bundle each runs, and one harmless probe (``run_commands`` of
``true``) through our PreToolUse file, run as Cline runs it (``sh FILE`` in the workspace,
the input on stdin)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path

from amplifier_hooks.hosts.cline import CLINE_PROFILE
from amplifier_hooks.hosts.cline.install import hooks_folder, our_hook_files
from amplifier_hooks.hosts.doctor_records import Probe, Scope, Wiring
from amplifier_hooks.hosts.launch import HOOK_SCRIPT_NAME, our_argv
from amplifier_hooks.hosts.probe_run import each_scope, json_answer, judged, run_probe

__all__ = ["UNGUARDED", "cline_reading", "cline_wirings"]

UNGUARDED = (
    "no unguarded path is known beyond what this hook closes itself: every failure of it "
    "is a deny the model reads, 10 s before Cline's 120 s kill",
)


def _argv(text: str) -> list[str]:
    for line in text.splitlines():
        if line.startswith("exec "):
            try:
                return our_argv(shlex.split(line[len("exec ") :]))
            except ValueError:
                return []
    return []


def _after(words: list[str], flag: str) -> str | None:
    return words[words.index(flag) + 1] if flag in words[:-1] else None


def cline_reading(code: int, stdout: str, stderr: str) -> tuple[str, bool]:
    """The answer of one hook run as Cline reads it (it ignores the exit code)."""
    text = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    if not text:
        return "no objection (the tool runs)", True
    answer = json_answer(text, "an answer that is not JSON (Cline runs the tool)")
    if isinstance(answer, str):
        return answer, False
    if answer.get("cancel"):
        return "cancels the whole task", False
    if (
        isinstance(answer.get("overrideInput"), dict)
        and "blocked_by_guard" in answer["overrideInput"]
    ):
        return f"denied: {answer.get('context', '')}", True
    return "no objection (the tool runs)", True


def _probe(path: Path, project: Path, environ: Mapping[str, str]) -> Probe:
    profile = CLINE_PROFILE
    payload = {**profile.probe, "workspaceRoots": [str(project)]}
    done = run_probe(["sh", str(path)], cwd=project, env=environ, payload=json.dumps(payload))
    return judged(profile.probe_event, done, cline_reading)


def _wiring(
    scope: Scope, folder: Path, project: Path, environ: Mapping[str, str], probe: bool
) -> Wiring | None:
    profile = CLINE_PROFILE
    ours = our_hook_files(folder)
    if not ours:
        return None
    commands = {path.stem: str(path) for path in ours}
    argvs = [_argv(text) for text in ours.values()]
    bundles = tuple(sorted({b for argv in argvs if (b := _after(argv, "--bundle"))}))
    urls = sorted({u for argv in argvs if (u := _after(argv, "--url"))})
    problems: list[str] = []
    if shutil.which(profile.binary, path=environ.get("PATH", os.defpath)) is None:
        problems.append(f"{profile.binary!r} ({profile.package}) is not on PATH")
    problems += [f"the bundle {b} does not exist" for b in bundles if not os.path.isfile(b)]
    for program in sorted({argv[0] for argv in argvs if argv}):
        if not os.access(program, os.X_OK):
            problems.append(f"the hook's program {program} does not exist")
    for script in sorted({w for argv in argvs for w in argv if w.endswith(HOOK_SCRIPT_NAME)}):
        if not os.path.isfile(script):
            problems.append(f"the hook's script {script} does not exist (install again)")
    notes = [*UNGUARDED, *(f"asks the server at {url}" for url in urls)]
    found = None
    pre = next((p for p in ours if p.stem == profile.probe_event), None)
    if probe and pre is not None:
        found = _probe(pre, project, environ)
    return Wiring(
        profile,
        scope,
        folder,
        tuple(sorted(commands)),
        bundles,
        commands,
        tuple(problems),
        tuple(notes),
        found,
    )


def cline_wirings(project: Path, environ: Mapping[str, str], *, send_probe: bool) -> list[Wiring]:
    """Our hook files in the user's folder and ``project``'s, each checked."""
    home = Path(environ.get("HOME") or Path.home())

    def check(scope: Scope, global_: bool) -> Wiring | None:
        _, folder = hooks_folder(project, global_, home)
        return _wiring(scope, folder, project, environ, send_probe)

    return each_scope(check)
