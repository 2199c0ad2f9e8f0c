"""A sign-in's numbers: how long a token or a session lives, what a password's hash costs,
how long a signed request may be replayed.

An edit that makes a lifetime fifty times longer (``expiresIn: '15m'`` made ``'3650d'``,
Java's ``Duration.ofMinutes(15)`` made ``ofDays(3650)``, Passport's ``addDays(15)`` made
``addYears(50)``), lowers a hash's cost (bcrypt's rounds from 12 to 4) or widens a replay
window (``> 300`` made ``> 10**9``) keeps the check's code and takes its force away;
`authchecks` asks each as a sign-in weakened.
"""

from __future__ import annotations

import re

__all__ = ["cost_lowered", "lifetime_raised", "sign_in_named", "window_widened"]

_COST = re.compile(
    r"\b(?P<name>\w*(?:rounds|time_cost|memory_cost|iterations|work_factor|cost_factor))\b[\"']?"
    r"\s*(?:=>|[:=])\s*(?:env\(\s*[\"']\w+[\"']\s*,\s*)?(?P<n>\d+)",
    re.I,
)
_LIFETIME = re.compile(
    r"\b(?P<name>\w*(?:TTL|EXPIR\w*|MAX_AGE|maxAge|expiresIn|LIFETIME|Lifespan|IdleTimeout)\w*"
    r"|(?:Access|Id|Refresh|Session)Token)\b[\"']?\s*(?:=>|[:=])\s*[\"'`]?"
    r"(?P<n>\d+(?:\s*\*\s*\d+)*)\s*(?P<unit>ms|s|m|h|d|w|y|mins?|minutes?|hours?|days?"
    r"|weeks?|years?)?\b",
    re.I,
)
_DURATION = re.compile(
    r"\b(?P<name>\w*(?:TTL|EXPIR\w*|LIFETIME|Validity|VALIDITY|Token\w*|TOKEN\w*))\b\s*[:=]\s*"
    r"Duration\.of(?P<unit>Minutes|Hours|Days|Seconds)\(\s*(?P<n>\d+)"
    r"|\b(?P<name2>\w*ExpireIn)\(\s*now\(\)->add(?P<unit2>Minutes|Hours|Days|Weeks|Months|Years)"
    r"\(\s*(?P<n2>\d+)",
)
"""A lifetime as Java's ``Duration.ofMinutes(15)`` or Laravel Passport's
``tokensExpireIn(now()->addDays(15))``."""
_SECONDS = {"ms": 0.001, "months": 2592000,
            "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
            "h": 3600, "hour": 3600, "hours": 3600, "d": 86400, "day": 86400, "days": 86400,
            "w": 604800, "week": 604800, "weeks": 604800, "y": 31536000, "year": 31536000,
            "years": 31536000}  # fmt: skip
"""A lifetime's unit in seconds (``'15m'``, ``'3650d'``: jsonwebtoken's, ms's); none: as
written."""
_SESSION = re.compile(r"token|session|link|cookie|jwt|refresh|otp|auth|login", re.I)


def sign_in_named(text: str) -> bool:
    """Whether ``text`` (a file's path, a setting's name) names a sign-in's part: a token,
    a session, a cookie, a login."""
    return _SESSION.search(text) is not None


def cost_lowered(old: str, new: str) -> bool:
    """A hash's cost (rounds, ``time_cost``, ``memory_cost``) lower in the new text."""
    return _lowered(_COST, old, new)


def lifetime_raised(old: str, new: str, session: bool) -> bool:
    """A token's or a session's lifetime fifty times as long or more (``session``: the file
    is a sign-in's, so any lifetime in it but a cache's is a session's)."""
    return _raised(_LIFETIME, old, new, session) or _raised(_DURATION, old, new, session)


_WINDOW = re.compile(
    r"(?:time\.time\(\)|Date\.now\(\)|now\(\))[^\n]{0,40}?[<>]=?\s*(?P<n>\d+(?:\s*\*\*?\s*\d+)*)"
)
"""A request's timestamp compared with now: the window a signed request may be replayed in."""


def window_widened(old: str, new: str) -> bool:
    """A replay window fifty times wider or more (``> 300`` made ``> 10**9``)."""
    before = [_number(m["n"]) for m in _WINDOW.finditer(old)]
    after = [_number(m["n"]) for m in _WINDOW.finditer(new)]
    return bool(before) and bool(after) and 0 < 50 * max(before) <= max(after)


def _number(text: str) -> int:
    """``300``, ``5 * 60``, ``10**9`` (at most a few digits of exponent)."""
    if "**" in text:
        base, _, power = text.partition("**")
        return int(int(base.strip()) ** min(int(power.strip().split("*")[0]), 30))
    product = 1
    for factor in text.split("*"):
        product *= int(factor)
    return product


def _values(pattern: re.Pattern[str], text: str) -> dict[str, float]:
    values: dict[str, float] = {}
    for found in pattern.finditer(text):
        groups = found.groupdict()
        name, n = groups.get("name") or groups.get("name2"), groups.get("n") or groups.get("n2")
        unit = (groups.get("unit") or groups.get("unit2") or "").lower()
        if name and n:
            values[name.lower()] = _number(n) * _SECONDS.get(unit, 1)
    return values


def _lowered(pattern: re.Pattern[str], old: str, new: str) -> bool:
    before, after = _values(pattern, old), _values(pattern, new)
    return any(name in before and value < before[name] for name, value in after.items())


def _raised(pattern: re.Pattern[str], old: str, new: str, session: bool) -> bool:
    """A session's lifetime fifty times as long or more (``session``: the file is a
    sign-in's, so any lifetime in it but a cache's is a session's)."""
    before, after = _values(pattern, old), _values(pattern, new)
    return any(
        name in before
        and ((session and "cache" not in name) or sign_in_named(name))
        and 0 < 50 * before[name] <= value
        for name, value in after.items()
    )
