"""The checks a recurring piece passes on its words alone, worked out once and kept.

Of a rule's checks (`rules.Check`), its flags, arguments, variables and whether the piece
only reads are a pure function of the piece: the same for an equal piece in any places,
at any call. Only its pushed branches (read from the repository) and its paths (resolved
on the file system) are of the call. A piece that recurs (`git status` in a new line at
every call) meets the same checks of its kind each time, and most of them fail on its
words (seven rules on `git config` and `-c` settings for `git status`): so for a piece
whose reading is kept (`readings`: an equal piece, seen before), the checks whose word
tests hold are kept too, those tests taken off, and `policy.Policy._decided` goes
through only them, testing what is left (branches and paths), in the same order: the
same first hit, so the same verdict.

Kept by the identity of the checks and of the reading (each kept beside its entry, so
neither identity is reused while the entry stands: a reading object is only ever one
piece's, `readings.kept`), from the second sight of the pair on (`recurring`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amplifier_hooks.guard.readsonly import reads_only
from amplifier_hooks.guard.recurring import Sightings
from amplifier_hooks.guard.rulematch import Check, args_hold, flags_hold

if TYPE_CHECKING:
    from amplifier_hooks.guard.facts import Facts
    from amplifier_hooks.guard.readings import Reading

__all__ = ["PASSED_KEPT", "forget_passed", "passed"]

PASSED_KEPT = 4096
"""Pairs of checks and reading whose passed checks are kept (all forgotten when full)."""

_KEPT: dict[tuple[int, int], tuple[tuple[Check, ...], Reading, tuple[Check, ...]]] = {}
_SIGHTED = Sightings(PASSED_KEPT)


def passed(checks: tuple[Check, ...], facts: Facts) -> tuple[Check, ...]:
    """``checks``, or, for a piece whose reading is kept, those whose word tests hold for
    it, with those tests taken off (what `Policy._decided` tests them for: the same
    answers)."""
    reading = facts.reading
    if reading is None:
        return checks
    key = (id(checks), id(reading))
    found = _KEPT.get(key)
    if found is not None and found[0] is checks and found[1] is reading:
        return found[2]
    if not _SIGHTED.again(key):
        return checks
    held = tuple(
        check._replace(flags=None, args=None, env=None, reads_only=None)
        for check in checks
        if _words_hold(check, facts)
    )
    if len(_KEPT) >= PASSED_KEPT:
        _KEPT.clear()
    _KEPT[key] = (checks, reading, held)
    return held


def _words_hold(check: Check, facts: Facts) -> bool:
    """Whether ``check``'s tests of the piece alone hold (`Policy._decided`'s first four)."""
    piece = facts.piece
    if check.flags is not None and not flags_hold(check.flags, facts.flags):
        return False
    if check.args is not None and not args_hold(check.args, piece.args):
        return False
    if check.env is not None and not args_hold(check.env, piece.env):
        return False
    return check.reads_only is None or reads_only(piece) is check.reads_only


def forget_passed() -> None:
    """Forget every kept entry (a test that changes what the checks read)."""
    _KEPT.clear()
    _SIGHTED.forget()
