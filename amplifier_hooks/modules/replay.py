"""Replays: a session replayed from a recording, where modules hold back side effects.

`amplifier-hooks run` replays a trace through a bundle to show what its hooks make of it.
A module that acts on the world (ah-shell runs commands that may rewrite files) must not
act then, or a replay would change the repository it was run in. The runtime says it is
replaying by registering the capability `REPLAY_CAPABILITY` with a `Replay` record before
the modules mount; a module asks `side_effects_allowed(coordinator)` when it is about to act,
and in a replay says what it would have done instead (a user message the report shows).
Modules that only read event data, write the bundle's own log, or keep state in memory
need not ask. A runtime that registers nothing is live: modules act.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["REPLAY_CAPABILITY", "Replay", "replay_of", "side_effects_allowed"]

REPLAY_CAPABILITY = "session.replay"
"""The capability a replaying runtime registers, with a `Replay` record as its value."""


@dataclass(frozen=True)
class Replay:
    """The session is a replay of a recording. ``live``: the person asked for side effects
    anyway (``amplifier-hooks run --live``), so modules act as in a live session."""

    live: bool = False


def replay_of(coordinator: Any) -> Replay | None:
    """The `Replay` record of ``coordinator``'s session, or None when it is not a replay."""
    getter = getattr(coordinator, "get_capability", None)
    value = getter(REPLAY_CAPABILITY) if callable(getter) else None
    return value if isinstance(value, Replay) else None


def side_effects_allowed(coordinator: Any) -> bool:
    """False only in a replay that was not asked to be live: then a module shows what it
    would do (a command, a write, a request) instead of doing it."""
    replay = replay_of(coordinator)
    return replay is None or replay.live
