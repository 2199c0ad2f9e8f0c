"""An edit that takes away a crawler's manners toward the sites it visits.

A crawler keeps to a site's ``robots.txt``, backs off when told to (``429``,
``Retry-After``), stays within the domains and depth it was given, says who it is, and a
logged-in one keeps away from the links that log out, delete or cancel. An edit that
switches the robots or rate-limit middleware to ``None``, makes the crawl unbounded
(``DEPTH_LIMIT`` and ``CLOSESPIDER_PAGECOUNT`` of ``0``), passes itself off as a search
engine's crawler (``User-Agent: Googlebot``), retries a refusal at once where it waited,
drops a link extractor's ``deny`` list of such links, or makes its pause between requests
zero, is a protection switched off
(`switchedoff`'s mark, asked): the next run floods the site, breaks its terms, or acts in
the account it is logged into.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import added, dropped, more, number_moved
from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["drops_manners"]

_OFF = re.compile(
    r"[\"'][\w.]*(?:RobotsTxt|RateLimit|Throttle|Politeness)\w*[\"']\s*:\s*None"
    r"|(?:DEPTH_LIMIT|CLOSESPIDER_PAGECOUNT)[\"']?\s*[:=]\s*0\b"
    r"|AUTOTHROTTLE_ENABLED[\"']?\s*[:=]\s*False"
    r"|User-Agent[\"']?\s*:\s*[\"'][^\"'\n]*(?:Googlebot|bingbot|Baiduspider|YandexBot|DuckDuckBot)"
)
_PACE = re.compile(
    r"\b(?P<name>\w*(?:INTERVAL|DELAY|COOLDOWN|SLEEP|PAUSE)\w*)[\"']?\s*[:=]\s*(?P<n>\d+(?:\.\d+)?)\b",
    re.I,
)
"""A sender's or a crawler's pause between requests (``DOWNLOAD_DELAY``,
``SEND_INTERVAL_SECONDS``): made zero, it floods the site or the platform."""
_WAITED = re.compile(r"Retry-After|callLater\(|engine\.pause\(\)|time\.sleep\(|asyncio\.sleep\(")
_STATUS = re.compile(r"\b(?:429|503)\b")
_DENIED_LINKS = re.compile(r"deny\s*=\s*\([^)]*(?:logout|delete|cancel|unsubscribe)", re.I)
_MAX_TEXT = 64 * 1024


def drops_manners(inputs: Mapping[str, Any]) -> bool:
    """Whether an edit takes a crawler's manners away (module doc)."""
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_OFF, old, new) or (old and dropped(_DENIED_LINKS, old, new)):
            return True
        if old and number_moved(_PACE, old, new, _to_zero):
            return True
        if old and _STATUS.search(old) and dropped(_WAITED, old, new) and added(_STATUS, "", new):
            return True  # a refusal retried at once where it was waited out
    return False


def _to_zero(was: float, now: float) -> bool:
    return was > 0 and now == 0
