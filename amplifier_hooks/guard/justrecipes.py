"""A justfile's recipes, as the shell runs them.

``just NAME`` runs each line of the recipe ``NAME`` (the indented lines below its header)
with ``sh -c``, and a backtick in an assignment (``version := `git describe```) when the
file is loaded, for any recipe. Both are read as shell commands. ``{{ ... }}``, just's
interpolation, is a word known when it runs; ``@`` and ``-`` before a line are just's
(quiet, keep going), not the command's. A recipe whose first line is a shebang
(``#!/usr/bin/env python3``) is a script in that language the guard does not read: its
lines are left out, and the file is never granted (`buildfiles.runs_later`).
"""

from __future__ import annotations

import re

__all__ = ["just_recipes"]

_INTERPOLATION = re.compile(r"\{\{.*?\}\}")
_BACKTICK = re.compile(r"^[A-Za-z_][\w-]*\s*:=\s*`([^`]+)`", re.MULTILINE)
_HEADER = re.compile(r"^[@A-Za-z_][\w-]*[^:=]*:(?!=)")


def just_recipes(text: str) -> list[str]:
    """The shell commands of ``text`` (a justfile, or an edit's new lines of one)."""
    found = [_as_shell(command) for command in _BACKTICK.findall(text)]
    in_script = False
    first = False
    for line in text.replace("\\\n", " ").splitlines():
        if not line[:1].isspace():
            first = bool(_HEADER.match(line))
            in_script = False
            continue
        body = line.strip()
        if first:
            in_script = body.startswith("#!")
            first = False
        if in_script or not body or body.startswith("#"):
            continue
        command = body.lstrip("@-").lstrip()
        if command:
            found.append(_as_shell(command))
    return found


def _as_shell(command: str) -> str:
    return _INTERPOLATION.sub("JUSTVALUE", command)
