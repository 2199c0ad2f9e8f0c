"""A loss a piece may cause, the question to git that tells, and whether git's answer
says it happens (`losses`: asked of git before judging, judged after)."""

from __future__ import annotations

from typing import Literal, NamedTuple

from amplifier_hooks.guard.ignorednames import ignored_kind
from amplifier_hooks.guard.paths import GLOB_CHARS
from amplifier_hooks.guard.repo import Entry, GitQuery, RepoFacts

__all__ = ["FILE_RULES", "Loss", "happens", "ignored_stake"]

Stake = Literal["data", "other"]
FILE_RULES = frozenset({"rm-loses-work", "truncate-loses-work", "overwrite-loses-work"})
"""The losses of a file's text: a delete, truncate or overwrite reaches what git ignores
too (a discard of git's, `git restore`, leaves ignored files alone)."""


class Loss(NamedTuple):
    """What a piece would lose if git's facts say so."""

    rule: str
    what: str
    ask: GitQuery | None
    """The question that tells (None: none can: the guard cannot tell)."""
    spec: str | None = None
    """The pathspec judged in the answer (None: all of it; refs: the answer says)."""
    tracked_only: bool = False
    """Only changes to tracked files are lost (``merge --abort`` keeps untracked files)."""
    certain: bool = False
    """Lost without asking git (a secret that exists)."""
    found: bool = False
    """Only what ``find``'s tests pick below ``what`` is lost (`find . -name '*.pyc'
    -delete`): an ignored path there may not be one of them."""
    staged_only: bool = False
    """Only staged text found nowhere else is lost (``git restore --staged``: the index
    goes back to HEAD; the worktree keeps its own text)."""


def happens(loss: Loss, repo: RepoFacts | None) -> bool | None:
    """Whether ``loss`` happens (None: the guard cannot tell)."""
    if loss.certain:
        return True
    ask = loss.ask
    if ask is None or repo is None or not repo.answers(ask):
        return None
    if ask.kind == "refs":
        return repo.lost
    return any(entry.code != "!" and not (loss.tracked_only and entry.code == "?")
               and (entry.staged_only or not loss.staged_only)
               and _matches(loss.spec, entry) for entry in repo.entries)  # fmt: skip


def ignored_stake(loss: Loss, repo: RepoFacts | None) -> tuple[Stake, str] | None:
    """What the ignored paths ``loss`` reaches hold, by name (`ignorednames`): ("data",
    path) when one holds data, ("other", path) when one is not known to be made again
    (or holds data and find's tests may pass it over), None when each is made again (or
    none is ignored)."""
    if loss.rule not in FILE_RULES or loss.ask is None or repo is None:
        return None
    if loss.ask.kind != "status" or not repo.answers(loss.ask):
        return None
    other: str | None = None
    for entry in repo.entries:
        if entry.code != "!" or not _matches(loss.spec, entry):
            continue
        path = _deeper(loss.spec, entry.path)
        kind = ignored_kind(path)
        if kind == "data" and not loss.found:
            return "data", path
        if kind != "regenerable" and other is None:
            other = path
    return None if other is None else ("other", other)


def _matches(spec: str | None, entry: Entry) -> bool:
    """Whether git's ``entry`` is at, below or above ``spec``, in any case (git was asked
    with ``icase``: `repo`)."""
    whole = spec is None or spec in (".", "")
    globbed = spec is not None and not GLOB_CHARS.isdisjoint(spec)
    base = (spec or "").rstrip("/").casefold()
    path = entry.path.casefold()
    return (whole or globbed or path.rstrip("/") == base or path.startswith(base + "/")
            or (path.endswith("/") and base.startswith(path)))  # fmt: skip


def _deeper(spec: str | None, path: str) -> str:
    """The path judged: git's entry, or the asked path when git reports a folder above it
    (``node_modules/`` for ``node_modules/x/app.db``)."""
    if spec is not None and GLOB_CHARS.isdisjoint(spec) and path.endswith("/"):
        base = spec.rstrip("/")
        if base.startswith(path) and len(base) > len(path):
            return base
    return path
