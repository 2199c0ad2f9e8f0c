"""How a person picks an option, on every screen that asks (the Textual modal, the
approver's console, the plain-terminal prompt): the keys that choose each option, the
countdown's text and the moment after a question appears in which input is ignored.
Plain Python, so the terminal prompt does not load Textual for them.
"""

from __future__ import annotations

import math

__all__ = ["DEFAULT_GUARD", "RESERVED_KEYS", "format_remaining", "shortcuts"]

DEFAULT_GUARD = 0.3
"""Seconds after a prompt appears during which keypresses and clicks are ignored."""

RESERVED_KEYS = frozenset("qpnior")
"""Letters the apps that show approval screens keep for themselves: q quit, p pause, n
step and i details in the replay app, o order and r refresh in the approver's console.
No option ever gets one as its shortcut, so a key means one thing on every screen (a
person who pressed the details key once denied a question that had taken it)."""


def shortcuts(options: list[str], reserved: frozenset[str] = RESERVED_KEYS) -> dict[str, str]:
    """Keys that choose each option: its number (1-9) and one letter of its own.

    The letter is the first letter of the option's first word that no earlier option has
    taken, else any free letter in it ("Allow once" a, "Allow always" l, "Deny" d); never
    one of ``reserved`` (an app's own keys: "Reject" gets e, not r).
    """
    keys: dict[str, str] = {}
    for index, option in enumerate(options):
        if index < 9:
            keys[str(index + 1)] = option
        words = option.lower().split()
        letters = [w[0] for w in words if w[:1].isalpha()]
        letters += [c for c in option.lower() if c.isalpha()]
        letter = next((c for c in letters if c not in keys and c not in reserved), None)
        if letter is not None:
            keys[letter] = option
    return keys


def format_remaining(seconds: float) -> str:
    """Whole seconds left, rounded up, as m:ss (h:mm:ss past an hour)."""
    if math.isinf(seconds):
        return "no time limit"
    whole = max(0, math.ceil(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"
