"""Shell scripts an agent writes in order to run them: a file whose first line is a
shell's ``#!`` (``#!/bin/sh``, ``#!/usr/bin/env bash``), which the kernel runs as it is.

The write is where the guard sees the script's commands. The run that follows
(``bash scripts/cleanup.sh``, ``./release.sh``) shows only the file's name, so what the
script does is judged when it is written, as planted code is (`planted`): each command is
a piece marked `SCRIPT`, never granted, and a deny among them asks at the write
(``written-script-code``: a repository's install or teardown script rightly holds what the
agent should not run unasked, so a person reads it rather than being refused). An ask among
them does not ask: a script's commands take what is known only when it runs (``"$@"``,
``$OUT_DIR``), and asking at every such write would stop ordinary scripts. A file
without the ``#!`` line (a fixture of lines a test feeds a linter, a snippet sourced by
another script) is text, judged as it was. An edit's text (an Edit's or MultiEdit's new
strings, an ``apply_patch`` update's added lines) into a file named as a shell script
(``scripts/dev.sh``) is read as that script's lines: the edit does not show the ``#!``
line the file keeps, and a Write of the text it results in would be read so (more is
read, never less). So is an edit's text into a file whose first line on disk is a shell's
``#!`` line, whatever its name (``bin/dev``, ``scripts/setup``: the suffixless scripts a
project keeps), read by `on_disk_script`, or a suffixless file in a ``bin`` or ``scripts``
folder when the guard sees no disk (`script_named`): there a shell's command denied asks, as
in any script, and nothing else is asked (Python's lines read as shell deny nothing).
"""

from __future__ import annotations

import os
import posixpath
import re
import stat

from amplifier_hooks.guard.inline import code_flags
from amplifier_hooks.guard.programs import SHELLS

__all__ = [
    "SCRIPT",
    "SCRIPT_DENIED",
    "SCRIPT_TOOL",
    "on_disk_script",
    "script_named",
    "shell_script",
]

SCRIPT = "@written-script-file"
"""The mark of a piece read from a shell script a write puts into a file."""
SCRIPT_DENIED = "@written-script-denied"
"""The mark a script's denied piece is judged again with (``written-script-code``, asked)."""
SCRIPT_TOOL = "whoever runs the script (the agent, next)"

_SHEBANG = re.compile(r"#![ \t]*(?:/usr)?(?:/local)?/bin/(?:env[ \t]+(?:-S[ \t]+)?)?([\w.-]+)")
"""``#!/bin/sh``, ``#!/usr/bin/env bash``: the program the kernel hands the file to."""


def shell_script(text: str, script_lines: bool = False) -> str | None:
    """The shell script ``text`` is when it starts with a shell's ``#!`` line, or is
    ``script_lines`` (an edit's lines of a file named as a shell script, whose ``#!``
    line the edit does not show); the command its ``#!`` line is when that names no
    shell and no interpreter (``#!/usr/bin/env -S rm -rf ~``: the kernel runs it with the
    file's name after it); None otherwise."""
    if script_lines and not text.startswith("#!"):
        return text
    found = _SHEBANG.match(text)
    if found is None:
        return None
    program = found.group(1)
    if program in SHELLS:
        return text
    if code_flags(program) is not None:  # an interpreter's script (`#!/usr/bin/env python3`)
        return None
    return text[2 : text.find("\n") if "\n" in text else len(text)].strip()


_FIRST_LINE = 256
"""The bytes of a file read for its ``#!`` line."""


def on_disk_script(path: str) -> bool:
    """The file at ``path`` starts with a shell's ``#!`` line now: an edit of it changes
    a shell script, whatever its name (a missing or unreadable file: False)."""
    try:  # without blocking on a fifo; a device or folder is no script
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):  # missing, unreadable, a NUL in the name
        return False
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return False
        head = os.read(handle, _FIRST_LINE)
    except OSError:
        return False
    finally:
        os.close(handle)
    return shell_script(head.decode("utf-8", "replace")) is not None


_SCRIPT_FOLDERS = frozenset({"bin", "scripts", "script"})
"""The folders a project keeps its own commands in (``bin/dev``, ``script/bootstrap``)."""


def script_named(path: str) -> bool:
    """``path`` is a suffixless file in a project's ``bin`` or ``scripts`` folder: by
    convention a script run by its name, most often a shell's."""
    folder, name = posixpath.split(path)
    return "." not in name and posixpath.basename(folder).lower() in _SCRIPT_FOLDERS
