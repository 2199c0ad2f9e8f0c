"""Our hooks for Cline: one file per event in ``<ws>/.cline/hooks/`` (``--global``:
``~/.cline/hooks/``), beside the user's.

Cline 3.0.65 runs every file in its hook folders named after an event (``PreToolUse``,
with or without ``.sh``, ``.bash``, ``.zsh``, …), by its shebang, with no trust step.
Ours is ``<Event>.sh`` (``.bash`` or ``.zsh`` when the user has that name), a ``sh``
script that runs our hook command in the fail-closed wrapper
(`amplifier_hooks.hosts.wrapper`) with a JSON deny: Cline lets the tool run whatever
goes wrong with a hook (any exit code, output that is not JSON, a hang, killed at 120 s),
so the wrapper answers a deny with the reason 10 s before that. Hooks run in the hub
daemon's environment, so each file names its bundle (and ``--url``) itself. Its comment
lines mark it as ours and record the folders install made, which uninstall removes when
they are empty again.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from amplifier_hooks.hosts import owned_files
from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.cline import CLINE_PROFILE
from amplifier_hooks.hosts.cline.answers import BLOCKED_FIELD
from amplifier_hooks.hosts.launch import hook_argv
from amplifier_hooks.hosts.wrapper import WHY, fail_closed_command

__all__ = [
    "FAILURE_ANSWER",
    "MARKER",
    "SUFFIXES",
    "ClinePlan",
    "ClineReport",
    "hooks_folder",
    "install_cline",
    "our_hook_files",
    "uninstall_cline",
]

MARKER = "# amplifier-hooks: this Cline hook"
SUFFIXES = (".sh", ".bash", ".zsh")
"""The names ours may take, in order (each runs by its shebang, ``sh``)."""

FAILURE_ANSWER: Mapping[str, object] = {
    "overrideInput": {BLOCKED_FIELD: "amplifier-hooks blocked this call (see the hook context)"},
    "context": WHY,
}
"""What the wrapper prints when our process gives no answer: the deny the model reads."""


def hooks_folder(project: Path, global_: bool, home: Path) -> tuple[Path, Path]:
    """(base, folder): ``<project>/.cline/hooks``, or ``~/.cline/hooks`` with ``global_``;
    ``base`` is where the folders install may make begin."""
    base = home if global_ else project
    return base, base / ".cline" / "hooks"


@dataclass(frozen=True)
class ClinePlan:
    """What to install: the bundle, the events, the URL of a running server (None: the
    workspace's own server, started on first use)."""

    bundle: Path
    events: tuple[str, ...]
    url: str | None = None
    executable: str = sys.executable

    def argv(self, event: str) -> list[str]:
        argv = [*hook_argv(self.executable, "cline", self.bundle), "--event", event]
        return argv + (["--url", self.url] if self.url else [])

    def script(self, event: str, made: tuple[str, ...]) -> str:
        """The hook file for ``event``: the wrapper where the event guards."""
        if CLINE_PROFILE.dialect.guarding(event):
            timeout = CLINE_PROFILE.timeouts.ours
            command = fail_closed_command(CLINE_PROFILE, self.argv(event), timeout, FAILURE_ANSWER)
        else:
            command = shlex.join(self.argv(event))
        return (
            "#!/bin/sh\n"
            f"{MARKER} runs an amplifier-hooks bundle on {event}; written by `amplifier-hooks "
            "cline install`, removed by `amplifier-hooks cline uninstall`.\n"
            f"# made: {json.dumps(list(made))}\n"
            f"exec {command}\n"
        )


@dataclass(frozen=True)
class ClineReport:
    """What an install or uninstall changed, and the hook files of ours now there."""

    folder: Path
    changed: bool
    files: tuple[Path, ...]


def _made(text: str) -> list[str]:
    for line in text.splitlines():
        if line.startswith("# made: "):
            try:
                made = json.loads(line[len("# made: ") :])
            except ValueError:
                return []
            return [m for m in made if isinstance(m, str)] if isinstance(made, list) else []
    return []


def our_hook_files(folder: Path) -> dict[Path, str]:
    """Our hook files in ``folder``, with their text."""
    found: dict[Path, str] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.iterdir()):
        if path.suffix in SUFFIXES and path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if MARKER in text:
                found[path] = text
    return found


def _place(folder: Path, event: str, ours: Mapping[Path, str]) -> Path:
    for suffix in SUFFIXES:
        path = folder / f"{event}{suffix}"
        if path in ours or not path.exists():
            return path
    names = ", ".join(f"{event}{s}" for s in SUFFIXES)
    raise SettingsError(f"{folder} already has hook files of its own called {names}")


def install_cline(base: Path, folder: Path, plan: ClinePlan) -> ClineReport:
    """Write our hook files into ``folder`` (nothing is written when each is already
    exactly that); ours for events no longer in the plan go."""
    ours = our_hook_files(folder)
    made = tuple(dict.fromkeys(m for text in ours.values() for m in _made(text)))
    if not ours:
        made = tuple(owned_files.folders_to_make(base, folder))
    for path in ours:
        owned_files.read_owned(path, MARKER)  # a file someone replaced since is theirs: an error
    wanted = {_place(folder, event, ours): event for event in plan.events}
    changed = False
    for path, event in wanted.items():
        changed |= owned_files.write_owned(path, plan.script(event, made))
    stale = [path for path in ours if path not in wanted]
    owned_files.unlink_all(stale)
    return ClineReport(folder, changed or bool(stale), tuple(sorted(wanted)))


def uninstall_cline(base: Path, folder: Path) -> ClineReport:
    """Remove our hook files from ``folder``, and the folders install made that are
    empty now."""
    ours = our_hook_files(folder)
    if not ours:
        return ClineReport(folder, False, ())
    made = [m for text in ours.values() for m in _made(text)]
    owned_files.unlink_all(list(ours))
    owned_files.remove_folders(base, made)
    return ClineReport(folder, True, ())
