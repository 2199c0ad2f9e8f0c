"""git's list commands take ref patterns as operands, not paths: ``git tag -l 'v*'``,
``git branch --list 'feat*'``, ``git for-each-ref 'refs/tags/*'``, ``git ls-remote
origin 'v*'`` match the patterns against ref names and read no file of the folder, so a
pattern whose letters would match a key file as a glob (``v*`` and ``vault.key``) is not
a read of that key. Anything else stays read as paths: a list with ``--file`` (a message
file), an ``ls-remote`` whose options take values apart (which word is its repository is
then unsure), and the repository operand of ``ls-remote`` (a path may name one)."""

from __future__ import annotations

__all__ = ["ref_patterns"]

_LISTING = frozenset({"tag", "branch"})
"""Subcommands that list refs matching their operands when given ``--list``."""
_REMOTE_VALUED = frozenset({"--upload-pack", "--exec", "-u", "--sort", "--server-option", "-o"})
"""``ls-remote`` options whose value may be the next word (then one of its operands)."""


def ref_patterns(subcommand: str | None, flags: frozenset[str],
                 operands: tuple[str, ...]) -> tuple[str, ...]:  # fmt: skip
    """The operands of a git call (as `splitargs.split_args` gives them) that are ref
    patterns, read from no file."""
    if subcommand in _LISTING:
        listing = "--list" in flags and "--file" not in flags and "-F" not in flags
        return operands if listing else ()
    if subcommand == "for-each-ref":
        return operands
    if subcommand == "ls-remote" and _REMOTE_VALUED.isdisjoint(flags):
        return operands[1:]  # the first names the repository
    return ()
