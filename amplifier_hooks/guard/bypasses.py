"""An edit that hard-codes a bypass: a check's skip switch set to a literal ``true`` where a
flag or a setting decided it, a script's "for real" option made its default.

``const skipFraudCheck = await flags.variation('ops-disable-fraud-check', ctx, false)``
made ``const skipFraudCheck = true`` turns the fraud check off for every request, where
the kill switch left it on unless someone flipped it; ``parser.add_argument("--apply",
action="store_true", default=True)`` makes a bulk script act on the live service at its
next plain run, where it rehearsed before; a feature-flag client started ``offline: true``
leaves every kill switch at the code's default, and one bootstrapped from a raw file on a
code host takes them from whoever owns that file; ``and False`` put in a check's
condition (``if abs(diff) > 0 and False:``) keeps the code and never runs it. Each is a
protection switched off (`switchedoff`'s mark, asked).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["hard_codes_bypass"]

_SKIP = re.compile(
    r"\b(?P<name>(?:skip|disable|bypass|ignore|no)_?\w*(?:check|verif\w*|validat\w*|auth\w*"
    r"|fraud|security|csrf|mfa|2fa|captcha|limit\w*|signature)s?)\s*(?::\s*\w+\s*)?=\s*"
    r"(?P<value>[^;\n]+)",
    re.IGNORECASE,
)
"""A skip switch assigned (``skipFraudCheck = ...``, ``DISABLE_AUTH = ...``)."""
_TRUE = re.compile(r"^\s*(?:true|True|1)\s*(?:[;,]|//|#|$)")
_FOR_REAL = re.compile(
    r"add_argument\(\s*[\"']--(?:apply|execute|commit|confirm|yes|live|send|force|for-real)[\"']"
    r"[^)]*\bdefault\s*=\s*True\b"
    r"|add_argument\(\s*[\"']--dry[-_]?run[\"'][^)]*\bdefault\s*=\s*False\b[^)]*\)"
)
"""A script's option that makes it act for real, on by default (or its dry run, off)."""
_FLAGS_OFFLINE = re.compile(
    r"\b(?:init|initialize|LDClient|LaunchDarkly\w*|Unleash\w*|GrowthBook|createClient)\b"
    r"[^;\n]{0,200}\boffline\s*:\s*true\b"
)
"""A feature-flag client started offline: every flag, kill switches among them, stays at
the default the code gives, whatever the person sets in the service."""
_RAW_SOURCE = re.compile(
    r"\b(?:bootstrap|config|settings|flags?|rules)\w*[\"']?\s*[:=]\s*\{?\s*[\"']?(?:url|uri|source)"
    r"[\"']?\s*[:=]\s*[\"'`]https?://(?:raw\.githubusercontent\.com|gist\.githubusercontent\.com"
    r"|pastebin\.com/raw|[\w.-]+/[^\"'`\s]*/-/raw/)",
    re.IGNORECASE,
)
"""Settings (flags, rules) loaded at run time from a file on a code host's raw address:
whoever owns that repository or paste sets them, not the flag service."""
_DEAD = re.compile(
    r"\b(?:and|&&)\s*(?:False|false|0)\s*(?::|\)|\{|$)|\bif\s*\(?\s*(?:False|false|0)\s*(?:and\b|&&|\)|:)",
    re.M,
)
"""A condition made never true by a literal (``... and False:``, ``if (false && ...)``)."""
_MAX_TEXT = 64 * 1024


def hard_codes_bypass(inputs: Mapping[str, Any]) -> bool:
    """Whether an edit sets a skip switch to a literal true where it was computed, or
    makes a script's for-real option its default."""
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_FOR_REAL, old, new):
            return True
        if more(_FLAGS_OFFLINE, old, new):
            return True
        if more(_RAW_SOURCE, old, new) or (old and more(_DEAD, old, new)):
            return True
        was = {m["name"]: m["value"] for m in _SKIP.finditer(old)}
        for found in _SKIP.finditer(new):
            before = was.get(found["name"])
            if before is not None and not _TRUE.match(before) and _TRUE.match(found["value"]):
                return True
    return False
