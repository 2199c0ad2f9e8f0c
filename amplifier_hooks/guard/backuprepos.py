"""What borg, restic and duplicity write, by their command: a listing writes nothing of
the files it is given, a restore writes only the folder it restores into.

``borg list /media/b/borg``, ``borg prune --dry-run ... REPO``, ``restic -r REPO snapshots``
read the repository (they may take a lock in it, which they remove): none of their words is
a path written. ``restic -r REPO restore latest --target /tmp/r`` writes ``/tmp/r`` only.
A dry run (``--dry-run``/``-n`` of a prune, a forget, a delete or an extract) writes
nothing, whatever else it is given (``forget --prune --dry-run``). duplicity's
``collection-status``, ``list-current-files`` and ``verify`` read, and its
``remove-older-than`` and kin only list what they would remove unless given ``--force``.
Every other command (create, backup, delete, prune, forget, compact, ...) is read as
before: each of its words a path it may write, and the pack's backup rules judge it.
None of these programs is granted (they are not in the table).
"""

from __future__ import annotations

__all__ = ["BACKUP_TOOLS", "backup_writes", "restored_into", "snapshot_paths"]

BACKUP_TOOLS = frozenset({"borg", "restic", "duplicity"})

_LOOKS = {
    "borg": frozenset({"list", "info", "diff", "check", "rlist", "rinfo", "repo-list",
                       "repo-info", "version"}),
    "restic": frozenset({"snapshots", "ls", "stats", "diff", "find", "cat", "list", "check",
                         "version"}),
    "duplicity": frozenset({"collection-status", "list-current-files", "verify"}),
}  # fmt: skip
"""The commands of each that print; ``check --repair`` (borg) and ``check`` with
``--repair`` are not looks (`_CHANGING`)."""
_DRY = frozenset({"--dry-run", "-n"})
_DRY_COMMANDS = frozenset({"prune", "delete", "forget", "compact", "extract"})
"""Commands that write nothing given ``--dry-run``/``-n`` (borg; restic's forget)."""
_FORCED = frozenset({"remove-older-than", "remove-all-but-n-full", "remove-all-inc-of-but-n-full",
                     "cleanup"})  # fmt: skip
"""duplicity's commands that remove only given ``--force`` (else they list)."""
_CHANGING = frozenset({"--repair", "--cleanup", "--prune", "--remove", "--force"})
_RESTORE_TARGETS = frozenset({"--target", "-t"})


def backup_writes(program: str, args: tuple[str, ...], words: tuple[str, ...]) -> tuple[str, ...]:
    """The words of ``words`` (``program ARGS``'s path words) that it writes."""
    if any(a.startswith(("--cache-dir", "--archive-dir")) for a in args):
        return words  # (a cache folder named is written: `--cache-dir ~/.claude`)
    command = next((a for a in args if a in _LOOKS[program] or a in _DRY_COMMANDS
                    or a in _FORCED or a == "restore"), None)  # fmt: skip
    if command is None:
        return words
    if program == "duplicity":
        return _duplicity_writes(command, args, words)
    if command in _DRY_COMMANDS and _DRY.intersection(args):
        return ()  # (`forget --prune --dry-run`: the dry run wins)
    if _CHANGING.intersection(args):
        return words
    if command in _LOOKS[program]:
        return ()
    if command in _DRY_COMMANDS:
        return words
    if program != "restic":
        return words
    targets = _targets(args)
    return targets if targets is not None else words


def restored_into(args: tuple[str, ...], written: tuple[str, ...]) -> tuple[str, ...]:
    """The folders a restore writes as a whole (``written``, its target: a snapshot
    unpacked into ``~/.claude`` changes the folder as ``tar -x -C`` does), else none."""
    return written if "restore" in args else ()


def _duplicity_writes(
    command: str, args: tuple[str, ...], words: tuple[str, ...]
) -> tuple[str, ...]:
    if command in _LOOKS["duplicity"] or (command in _FORCED and "--force" not in args):
        return ()
    if command == "restore":  # `duplicity restore URL DIR`: DIR
        return words[-1:]
    return words


def _targets(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """``restic restore``'s ``--target DIR``/``--target=DIR``/``-t DIR`` (None: not given)."""
    return _values(args, _RESTORE_TARGETS) or None


def _values(args: tuple[str, ...], names: frozenset[str]) -> tuple[str, ...]:
    """The values of the options ``names`` (``--include P``, ``--include=P``, ``-tDIR``)."""
    found: list[str] = []
    for index, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if equals and name in names and name.startswith("--"):
            found.append(value)
        elif arg in names and index + 1 < len(args):
            found.append(args[index + 1])
        elif arg[:1] == "-" and arg[1:2] != "-" and arg[:2] in names and len(arg) > 2:
            found.append(arg[2:])
    return tuple(found)


_SNAPSHOT_FILTERS = frozenset({"--include", "-i", "--exclude", "-e", "--iinclude", "--iexclude"})


def snapshot_paths(args: tuple[str, ...]) -> tuple[str, ...]:
    """The words of ``restic restore ARGS`` that name paths inside the snapshot (``--include
    /home/dev/documents``, ``-e *.tmp``): what is taken from the backup, not read here."""
    return _values(args, _SNAPSHOT_FILTERS) if "restore" in args else ()
