"""What a copy, a move or a writer puts its output over: the files whose contents it
replaces (``cp``/``mv``/``install``/``ln -f``/``rsync`` where they land, ``tee FILE``,
``sort -o FILE``, ``uniq IN OUT``, ``xxd IN OUT``, ``dd of=FILE``), and a file tool's
write of a whole file (Claude Code's ``Write``, Gemini CLI's ``write_file``, an MCP
server's ``write_file``): its text replaces what the file held, as ``tee FILE`` does.

`losses` asks git about these, as it does for ``> FILE``: writing over a file with
changes not committed, or one git neither tracks nor ignores, loses that work. The
options are read as the program reads them (``cp -n`` and ``ln`` without ``-f`` replace
nothing, ``tee -a`` appends).
"""

from __future__ import annotations

from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import Located, locate_all
from amplifier_hooks.guard.table import read_program, spelled

__all__ = ["FILE_WRITERS", "WRITERS", "moved_out", "overwritten"]

WRITERS = frozenset({"cp", "mv", "install", "ln", "rsync", "tee", "sort", "uniq", "xxd", "dd"})
"""Programs that may replace a file's contents with their output."""
FILE_WRITERS = frozenset({"write_file", "create_file"})
"""File tools (canonical names) that put their text in place of a whole file's. An edit
(``old_string`` to ``new_string``, a patch's ``Update File``) keeps the rest of the file:
what it changes is in the call, so it is no overwrite."""

_KEEPS = {
    "cp": frozenset({"-n", "--no-clobber"}),
    "mv": frozenset({"-n", "--no-clobber"}),
    "tee": frozenset({"-a", "--append"}),
    "rsync": frozenset({"--ignore-existing", "--append", "--append-verify"}),
}
"""Options with which the program replaces no file that is there."""
_COPIES = frozenset({"cp", "mv", "install", "ln"})


def overwritten(piece: Piece, places: Places, facts: Facts | None = None) -> tuple[Located, ...]:
    """The paths ``piece`` writes over (resolved; those that do not exist lose nothing;
    ``facts``: the piece's, when the rules have them)."""
    if piece.tool in FILE_WRITERS:  # its paths are all it writes (`Facts.paths`)
        return (facts if facts is not None else Facts(piece, places)).paths("write")
    program = piece.program or ""
    args = piece.args
    read = spelled(program, args)
    flags = read.flags if read is not None else frozenset(a for a in args if a[:1] == "-")
    keeps = _KEEPS.get(program)
    if keeps is not None and not keeps.isdisjoint(flags):
        return ()
    if "--update=none" in args or "--update=none-fail" in args:
        return ()  # cp and mv replace nothing that exists
    if program == "ln" and "--force" not in flags and "-f" not in flags:
        return ()  # ln refuses to replace a file
    content, whole = (facts if facts is not None else Facts(piece, places)).changed
    words = (*content, *whole)
    if program in _COPIES and read is not None:  # what is moved or linked away is kept
        into = not flags.isdisjoint(("-t", "--target-directory"))
        sources = set(read.operands if into else read.operands[:-1])
        words = tuple(w for w in words if w not in sources)
    return locate_all(words, piece.cwd, places) if words else ()


_HERE = frozenset({"inside_workspace", "workspace_root"})


def moved_out(piece: Piece, places: Places) -> tuple[Located, ...]:
    """What a ``mv`` takes out of the workspace (resolved): its sources, when it moves
    them to a place outside it (``mv src /tmp/src``, ``mv -t /tmp src``). Gone from the
    project, they are judged as deleted there: git says whether they can come back.
    Nothing when it moves within the workspace (its destination is judged as an
    overwrite), or when the destination is not known."""
    read = read_program("mv", piece.args) if piece.program == "mv" else None
    if read is None or read.doubt is not None:
        return ()
    into, operands = read.values("into"), read.operands
    target, sources = (into[-1:], operands) if into else (operands[-1:], operands[:-1])
    if not target or not sources:
        return ()
    where = locate_all(target, piece.cwd, places)[0].where
    if "unknown" in where or not _HERE.isdisjoint(where):
        return ()
    return locate_all(sources, piece.cwd, places)
