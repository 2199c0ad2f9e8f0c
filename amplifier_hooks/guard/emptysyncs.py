"""rsync with ``--delete`` from a source that sends nothing: the fast way to delete a whole
tree (``mkdir -p /tmp/empty && rsync -a --delete /tmp/empty/ DEST/``), it deletes
everything under the destination. Marked `EMPTIES` for the pack's deny
(``rsync-empties-folder``, ``rsync-empties-remote``).

A source sends nothing when it is a folder the same command made and nothing else names
(`wipes.empty_made`) in a command of only ``mkdir``, ``cd`` and the ``rsync`` (its
``-e ssh``), or when every file is excluded (``--exclude='*'``) and
``--delete-excluded`` deletes the excluded files on the other side too. A dry run, a
backup of what is deleted (``-b``, ``--backup-dir``), ``--max-delete`` or a filter that
keeps some files leave no mark: the other rules judge the copy as before.
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.wipes import empty_made

__all__ = ["EMPTIES", "empties", "mark_empty_syncs"]

EMPTIES = "@sync-empties"
"""The mark of an rsync that deletes everything under its destination."""

_DELETES = frozenset({"--delete", "--del", "--delete-before", "--delete-during",
                      "--delete-delay", "--delete-after", "--delete-excluded"})  # fmt: skip
_KEEPS = frozenset({"-n", "--dry-run", "--list-only", "-b", "--backup", "--backup-dir",
                    "--max-delete", "--include", "--include-from", "--filter", "-f", "-F",
                    "--files-from", "--existing", "--ignore-existing"})  # fmt: skip
"""Options that make the sync change nothing or keep part of the destination (a dry run,
a backup of each deleted file, a cap on deletes, a filter that may keep files)."""
_VALUED = frozenset({"-e", "--rsh", "--exclude", "--include", "--exclude-from",
                     "--include-from", "--filter", "-f", "--files-from", "--backup-dir",
                     "--suffix", "--log-file", "--chmod", "--chown", "-T", "--temp-dir",
                     "--partial-dir", "--compare-dest", "--copy-dest", "--link-dest", "-M",
                     "--remote-option", "--rsync-path", "--max-delete", "--port",
                     "--password-file", "--bwlimit", "--timeout", "--info", "--debug", "-B",
                     "--block-size", "--max-size", "--min-size", "--usermap", "--groupmap",
                     "--out-format", "--skip-compress", "--iconv"})  # fmt: skip
"""Options that take the next word as their value (never an operand)."""
_ALONE = frozenset({"mkdir", "rsync", "ssh", "cd", "pushd", "popd", "echo", "true"})
"""The programs a command may hold for a folder its ``mkdir`` made to count as empty: any
other (``npm run build``, ``make``) may fill it without naming it."""
_EVERYTHING = frozenset({"*", "**", "/*", "/**", "*/", "**/"})
"""Exclude patterns that match every file."""


def mark_empty_syncs(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each rsync that empties its destination marked (`EMPTIES`); the
    same tuple when none does."""
    out: list[Piece] | None = None
    alone = all(piece.program in _ALONE for piece in pieces)
    for index, piece in enumerate(pieces):
        if piece.program != "rsync" or EMPTIES in piece.wrappers:
            continue
        if empties(piece.args, empty_made(pieces, index) if alone else frozenset()):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, EMPTIES))
    return pieces if out is None else tuple(out)


def empties(args: tuple[str, ...], made: frozenset[str] = frozenset()) -> bool:
    """Whether ``rsync args`` deletes everything under its destination (``made``: the
    empty folders the same command makes)."""
    operands, given, excluded = _read(args)
    if given.isdisjoint(_DELETES) or not given.isdisjoint(_KEEPS) or len(operands) < 2:
        return False
    if "--delete-excluded" in given and excluded.intersection(_EVERYTHING):
        return True
    sources = [source.rstrip("/") for source in operands[:-1]]
    return all(source and source in made for source in sources)


def _read(args: tuple[str, ...]) -> tuple[list[str], set[str], set[str]]:
    """rsync's operands, the options given (by name; ``-avn`` as ``-a -v -n``) and the
    exclude patterns."""
    operands: list[str] = []
    given: set[str] = set()
    excluded: set[str] = set()
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            operands.extend(args[index:])
            break
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
            continue
        if not arg.startswith("--") and len(arg) > 2:
            given.update(f"-{letter}" for letter in arg[1:-1])  # -avn: -a -v -n
            arg = f"-{arg[-1]}"  # the last may take the next word as its value
        name, equals, value = arg.partition("=")
        if not equals and name in _VALUED and index < len(args):
            value = args[index]
            index += 1
        given.add(name)
        if name == "--exclude":
            excluded.add(value)
    return operands, given, excluded
