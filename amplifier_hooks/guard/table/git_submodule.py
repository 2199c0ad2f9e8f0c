"""``git submodule``: ``foreach CMD`` runs CMD in every submodule (read as a command
run, judged as if run here, and marked `EACH_SUBMODULE` for what only the submodules'
own facts could clear); the looks (``status``, ``summary``) change nothing; the rest
changes the submodules (never granted)."""

from __future__ import annotations

import shlex

from amplifier_hooks.guard.table.acts import Act, Does, Reading, doubtful

__all__ = ["EACH_SUBMODULE", "in_each_submodule", "submodule_reading"]

_SUBMODULE_LOOKS = frozenset({"status", "summary"})
EACH_SUBMODULE = "@each-submodule"
"""The mark of a command ``git submodule foreach`` runs (in every submodule)."""


def in_each_submodule(program: str, args: tuple[str, ...]) -> bool:
    """Whether ``program args`` is a ``git submodule foreach`` (a cheap test of its words)."""
    return program == "git" and "foreach" in args and "submodule" in args


def submodule_reading(args: tuple[str, ...]) -> Reading:
    """``git submodule foreach [--recursive] CMD``: git runs CMD (one word: a script for
    ``sh -c``; more: a program's words) in each submodule, where the guard sees none of
    its files; any other subcommand but a look changes the submodules (no grant)."""
    words = [a for a in args if a not in ("-q", "--quiet", "--cached")]
    sub = words[0] if words else "status"
    if sub == "foreach":
        rest = words[1:]
        while rest and rest[0] in ("--recursive", "-q", "--quiet"):
            rest = rest[1:]
        if not rest:
            return doubtful("git submodule foreach with no command")
        command = rest[0] if len(rest) == 1 else shlex.join(rest)
        return Reading((Act(Does.RUN, command),), "git submodule foreach runs it in each "
                       "submodule, whose files the guard does not see")  # fmt: skip
    if sub in _SUBMODULE_LOOKS:
        return Reading()
    return doubtful(f"git submodule {sub} changes the submodules")
