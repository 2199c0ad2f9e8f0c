"""Where a command reaches beyond the machine's files: the host ``ssh`` runs a command on,
and the branches a ``git push`` updates.

Both are read from the command's words; the branch a bare ``git push`` (or ``HEAD``)
updates is the repository's current one, read from its ``HEAD`` file when the guard can
find it, else `UNKNOWN_BRANCH`.
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase

from amplifier_hooks.guard.fedcode import echoed_text
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.git_options import PUSH
from amplifier_hooks.guard.table.network import SSH
from amplifier_hooks.guard.table.options import read_options

__all__ = [
    "UNKNOWN_BRANCH",
    "fed_remote",
    "pattern_pushes",
    "piped_remotes",
    "pushed_branches",
    "ssh_remote",
]

UNKNOWN_BRANCH = "(unknown)"
"""The branch of a push the guard cannot tell (a rule's ``branch`` may name it)."""


def ssh_remote(args: tuple[str, ...]) -> tuple[str, str] | None:
    """(host, command) when ``ssh`` is given a command to run there, else None (ssh's
    options as the table reads them: ``-p 22``, ``-i key``, ``-oProxyCommand=..``)."""
    rest = read_options(SSH, args).operands
    if len(rest) < 2:
        return None
    return rest[0], " ".join(rest[1:])


def fed_remote(
    args: tuple[str, ...], script: str | None, reads: tuple[str, ...]
) -> tuple[str, ...]:
    """``ssh ARGS`` given a host and no command runs what its input holds in the login
    shell there: ``ARGS`` with that as the command (``script``, a heredoc's or
    here-string's text; else a file's, ``reads``: the shell that reads it, ``sh``)."""
    if script is None and all(path == "/dev/null" for path in reads):
        return args
    if len(read_options(SSH, args).operands) != 1:
        return args
    return (*args, "sh" if script is None else script)


def piped_remotes(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each ``ssh`` given a host and no command that reads what the piece
    before it prints (``printf 'reload\\n' | ssh -T sw1``) given that as its command, as
    a heredoc's text is (`fed_remote`): a literal ``echo``'s or ``printf``'s, else the
    shell that reads it (``sh``)."""
    out = list(pieces)
    for index in range(1, len(pieces)):
        piece, feeder = pieces[index], pieces[index - 1]
        if piece.program == "ssh" and feeder.pipes_to[:1] == ("ssh",):
            out[index] = piece._replace(args=fed_remote(piece.args, echoed_text(feeder), ("-",)))
    return tuple(out)


def pushed_branches(args: tuple[str, ...], directory: str | None) -> tuple[str, ...]:
    """The branches ``git push ARGS`` (``args`` after ``push``) updates, run in
    ``directory`` (None: unknown): each refspec's destination, or the current branch
    (push's options as the table reads them: ``--repo X``, ``--push-opt=X``)."""
    read = read_options(PUSH, args)
    if read.has("dry"):  # `-n`/`--dry-run` (the last of it and `--no-dry-run`): no branch
        return ()
    refspecs = read.operands[1:]
    if not refspecs:
        return (current_branch(directory),)
    branches = []
    for spec in refspecs:
        destination = spec.lstrip("+").rsplit(":", 1)[-1].lstrip("+") or spec.lstrip("+")
        if destination in ("HEAD", "@"):
            destination = current_branch(directory)
        branches.append(destination.removeprefix("refs/heads/"))
    return tuple(branches)


def pattern_pushes(names: tuple[str, ...], pushed: tuple[str, ...]) -> bool:
    """Whether a pattern refspec among ``pushed`` (``+refs/heads/*:refs/heads/*``: every
    branch it matches, which only the remote knows) updates a branch ``names`` (a rule's
    globs: ``main``, ``release*``) holds for: the pattern matches the glob's own name
    (``release`` of ``release*``)."""
    patterns = [p for p in pushed if "*" in p]
    if not patterns:
        return False
    plain = [n.replace("*", "").replace("?", "") for n in names if n != UNKNOWN_BRANCH]
    return any(fnmatchcase(name, p) for p in patterns for name in plain if name)


def current_branch(directory: str | None) -> str:
    """The branch checked out in the repository holding ``directory``, read from its
    ``HEAD`` (a worktree's ``.git`` file is followed); `UNKNOWN_BRANCH` if it cannot be
    read or no branch is checked out."""
    if directory is None:
        return UNKNOWN_BRANCH
    folder = directory
    for _ in range(64):
        dot_git = os.path.join(folder, ".git")
        head = _head_of(dot_git)
        if head is not None:
            return head
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return UNKNOWN_BRANCH


def _head_of(dot_git: str) -> str | None:
    try:
        if os.path.isfile(dot_git):
            with open(dot_git, encoding="utf-8") as handle:
                pointer = handle.read(4096).strip()
            if not pointer.startswith("gitdir:"):
                return UNKNOWN_BRANCH
            target = pointer.removeprefix("gitdir:").strip()
            dot_git = os.path.join(os.path.dirname(dot_git), target)
        elif not os.path.isdir(dot_git):
            return None
        with open(os.path.join(dot_git, "HEAD"), encoding="utf-8") as handle:
            head = handle.read(4096).strip()
    except (OSError, ValueError):
        return UNKNOWN_BRANCH
    if head.startswith("ref: refs/heads/"):
        return head.removeprefix("ref: refs/heads/")
    return UNKNOWN_BRANCH  # a detached HEAD: no branch
