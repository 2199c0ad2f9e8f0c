"""A loss a piece may cause, the question to git that tells, and whether git's answer
says it happens (`losses`: asked of git before judging, judged after)."""

from __future__ import annotations

from typing import NamedTuple

from amplifier_hooks.guard.paths import GLOB_CHARS
from amplifier_hooks.guard.repo import GitQuery, RepoFacts

__all__ = ["Loss", "happens"]


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


def happens(loss: Loss, repo: RepoFacts | None) -> bool | None:
    """Whether ``loss`` happens (None: the guard cannot tell)."""
    if loss.certain:
        return True
    ask = loss.ask
    if ask is None or repo is None or not repo.answers(ask):
        return None
    if ask.kind == "refs":
        return repo.lost
    spec = loss.spec
    whole = spec is None or spec in (".", "")
    globbed = spec is not None and not GLOB_CHARS.isdisjoint(spec)
    base = (spec or "").rstrip("/")
    for entry in repo.entries:
        if entry.code == "!" or (loss.tracked_only and entry.code == "?"):
            continue
        path = entry.path
        if (whole or globbed or path.rstrip("/") == base or path.startswith(base + "/")
                or (path.endswith("/") and base.startswith(path))):  # fmt: skip
            return True
    return False
