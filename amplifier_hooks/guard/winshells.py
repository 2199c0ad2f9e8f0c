"""Windows shells as the guard judges them: a PowerShell tool's command, and a Windows
program a POSIX shell tool runs (``cmd /c ...``, ``icacls X /grant ...``), each read
(`psreader`, `cmdreader`) as the POSIX command that does the same, then parsed and judged
as any shell command is.

Nothing read so is granted but PowerShell that only reads (``Get-Content``,
``Get-ChildItem``, ``Select-String`` with every word known): the rules still deny and ask.
"""

from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

from amplifier_hooks.guard.calls import POWERSHELL_TOOLS, ToolCall
from amplifier_hooks.guard.cmdreader import cmd_words, read_cmd
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.psreader import CmdShells, read_powershell
from amplifier_hooks.guard.winprograms import is_windows_program, may_be_windows_program

__all__ = [
    "READ_AS_CMD",
    "READ_AS_POWERSHELL",
    "powershell_command",
    "powershell_of",
    "windows_pieces",
]

READ_AS_POWERSHELL = "PowerShell is read for what it changes, not granted: only its pure reads are"
READ_AS_CMD = "a Windows program's words are read as cmd.exe passes them, not granted"
_MAX_PIECES = 200
_CMD_C = re.compile(r"^\S*?cmd(?:\.exe)?\s+(?:/[a-bd-jl-z]\S*\s+)*/[ck]\s+(.*)$", re.I | re.S)


def powershell_command(text: str, home: str) -> tuple[str, str | None] | None:
    """A PowerShell tool's ``text`` as POSIX shell text, and why it is not granted (None:
    it only reads); None when it cannot be read."""
    reading = read_powershell(text, PurePosixPath(home).name)
    if reading is None:
        return None
    return reading.shell, (None if reading.reads else READ_AS_POWERSHELL)


def _text_of(piece: Piece) -> str:
    """The piece's own text from its program on, as cmd.exe would be given it; its words
    as the POSIX shell passed them where a redirection among them cut its text short."""
    program = piece.program or ""
    start = re.search(re.escape(program), piece.text)
    text = piece.text[start.start() :] if start is not None else piece.text
    words = [w for c in cmd_words(text, "", posix=True) for w in c if w[0] not in ("op", "redir")]
    if len(words) >= 1 + len(piece.args):
        return text
    return " ".join(shlex.quote(w) for w in (program, *piece.args))


def powershell_of(call: ToolCall, places: Places) -> tuple[str, str | None] | None:
    """A PowerShell tool call's command read (`powershell_command`); None for another tool
    or a command that cannot be read (then judged as a tool the guard does not know)."""
    if call.tool not in POWERSHELL_TOOLS or call.command is None:
        return None
    return powershell_command(call.command, places.known.home)


def windows_pieces(pieces: tuple[Piece, ...], home: str) -> tuple[Piece, ...]:
    """``pieces`` with each one that runs a Windows program replaced by the pieces of its
    cmd.exe reading (never granted)."""
    for piece in pieces:  # (a loop and a set test first: every command passes here)
        if may_be_windows_program(piece.program) and is_windows_program(piece.program, piece.args):
            break
    else:
        return pieces
    home_name = PurePosixPath(home).name
    found: list[Piece] = []
    drives: dict[str, str] = {}
    for piece in pieces:
        if not is_windows_program(piece.program, piece.args) or piece.opaque or not piece.program:
            found.append(piece)
            continue
        text = _text_of(piece)
        inner = _CMD_C.match(text)
        if inner is not None:  # `cmd /c "..."`: cmd.exe drops the outer quotes, keeps the rest
            given = inner.group(1).strip()
            quoted = len(given) > 1 and given[0] == given[-1] == '"'
            text = given[1:-1] if quoted else given
        parsed = parse_command(read_cmd(text, CmdShells(home_name), posix=True, drives=drives))
        if parsed.problem is not None or len(parsed.pieces) > _MAX_PIECES:
            found.append(piece._replace(doubt=piece.doubt or READ_AS_CMD))
            continue
        for each in parsed.pieces:
            found.append(each._replace(
                wrappers=(*piece.wrappers, *each.wrappers), env=(*piece.env, *each.env),
                cwd=piece.cwd if each.cwd == "." else each.cwd, doubt=each.doubt or READ_AS_CMD,
            ))  # fmt: skip
    return tuple(found)
