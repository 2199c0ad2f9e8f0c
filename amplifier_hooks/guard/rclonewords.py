"""What an rclone command changes, by its subcommand.

rclone names what it does first (``rclone sync SRC DST``), so its words are not all
written: a look (``check``, ``size``, ``ls``, ``md5sum``) or a dry run (``--dry-run``,
``-n``, in a group of short flags too: ``-nv``) changes nothing; a copy or a sync changes
every operand after its source (an option's value among them is read as one too: never
less than it changes), and a move, a delete or a two-way sync every operand. Both the
paths it writes (`pathwords.written_words`) and what it changes as a whole
(`places.changed`) are this one reading.
"""

from __future__ import annotations

from amplifier_hooks.guard.changedpaths import operand_words

__all__ = ["rclone_changes"]

_LOOKS = frozenset({"ls", "lsd", "lsl", "lsf", "lsjson", "check", "cryptcheck", "checksum",
                    "size", "about", "tree", "ncdu", "listremotes", "version", "hashsum",
                    "md5sum", "sha1sum", "cat", "link", "serve", "help"})  # fmt: skip
_TAKES = frozenset({"move", "moveto", "bisync", "delete", "purge", "rmdir", "rmdirs",
                    "deletefile", "cleanup", "dedupe"})  # fmt: skip


def rclone_changes(args: tuple[str, ...]) -> tuple[str, ...]:
    """The words of ``rclone ARGS`` that it changes (empty: a look or a dry run)."""
    if any(_dry(a) for a in args):
        return ()
    words = [a for a in args if not a.startswith("-")]
    if not words or words[0] in _LOOKS:
        return ()
    operands = operand_words(tuple(words[1:]))
    return operands if words[0] in _TAKES else operands[1:]


def _dry(arg: str) -> bool:
    if arg in ("--dry-run", "--dry-run=true"):
        return True
    return arg[:1] == "-" and arg[1:2] not in ("-", "") and arg[1:].isalpha() and "n" in arg[1:]
