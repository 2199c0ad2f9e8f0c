"""Windows scripts a write puts in the project: a PowerShell script (``.ps1``, ``.psm1``)
or a batch file (``.bat``, ``.cmd``), which the person or the agent runs next by its name
(``.\\scripts\\dev-setup.ps1``, ``clean.bat``).

As a shell script's (`writtenscripts`), their commands are judged when they are written:
each is read as the POSIX command that does the same (`psreader` for PowerShell,
`cmdreader` line by line for a batch file), so ``Set-MpPreference
-DisableRealtimeMonitoring $true``, ``iex (irm http://...)`` or ``del /s /q
"%USERPROFILE%\\*"`` in a setup script is what it is. A script that cannot be read is
none of them (no grant, as any write of a script).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from amplifier_hooks.guard.cmdreader import read_cmd
from amplifier_hooks.guard.psreader import CmdShells, read_powershell

__all__ = ["windows_script"]

_POWERSHELL = (".ps1", ".psm1")
_BATCH = (".bat", ".cmd")
_MAX_LINES = 400


def windows_script(path: str, text: str, home: str) -> str | None:
    """The POSIX shell text of the Windows script ``text`` written to ``path`` (None: the
    file is no PowerShell script or batch file, or its text cannot be read)."""
    name = path.replace("\\", "/").rpartition("/")[2].lower()
    home_name = PurePosixPath(home).name
    if name.endswith(_POWERSHELL):
        reading = read_powershell(text, home_name)
        return reading.shell if reading is not None else None
    if not name.endswith(_BATCH):
        return None
    shells = CmdShells(home_name)
    drives: dict[str, str] = {}
    lines: list[str] = []
    for raw in text.splitlines()[:_MAX_LINES]:
        line = raw.strip().lstrip("@").strip()
        lowered = line.lower()
        if not line or lowered.startswith(("rem ", "::")) or lowered in ("rem", "echo off"):
            continue
        lines.append(read_cmd(line, shells, posix=True, drives=drives))
    return "\n".join(lines)
