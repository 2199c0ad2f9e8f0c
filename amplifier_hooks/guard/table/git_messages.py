"""The messages a git command line gives as text (``commit -m``, ``tag -m``, ``stash push
-m``): prose for the history, never a path, so ``git commit -m 'untrack .env'`` reads no
``.env`` (``-F FILE`` names a file, and stays one)."""

from __future__ import annotations

from amplifier_hooks.guard.table.git import git_read

__all__ = ["git_messages"]


def git_messages(args: tuple[str, ...]) -> tuple[str, ...]:
    """The texts ``git ARGS`` is given as a message with ``-m`` (``--message``)."""
    read = git_read(args).read
    if read is None:
        return ()
    return tuple(g.value for g in read.given if g.value is not None and g.opt.names[0] == "-m")
