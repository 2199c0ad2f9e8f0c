"""Code added to a site's pages that sends what people type into its forms to another
place: a card skimmer.

A checkout's card number and security code belong to the payment provider's
field and the site's own server. Page code that reads those fields, or every form on the
page as it is submitted (``document.addEventListener('submit', ...)`` with its
``FormData``), and sends them to an address it spells out in full (``sendBeacon``,
``fetch``, ``$.post``, an image's ``src``), or server code that writes a request's whole
form into a file (PHP's ``$_POST`` into ``file_put_contents``), is what a skimmer does,
whoever asks for it; so is a tracker's call (Meta's pixel, gtag) given a card's number or
security code. The text an edit adds is read (not what it replaces); both halves
must be in it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["FORM_DATA_SENT", "skims_forms"]

FORM_DATA_SENT = "@form-data-sent"
_CARD_FIELD = re.compile(
    r"""['"#\[.](?:[\w-]*?_)?(?:cc[_-]?(?:number|num|cid|cvv|exp)|card[_-]?(?:number|num|cvc|cvv)"""
    r"""|cardnumber|cvv2?|cvc|security[_-]?code)\b""",
    re.I,
)
_EVERY_FORM = re.compile(
    r"""(?:document|window)\.addEventListener\(\s*['"](?:submit|change|input|keydown|keyup)['"]"""
)
_FORM_READ = re.compile(r"new\s+FormData\b|\.serialize(?:Array)?\(\)|\.val\(\)|\.value\b")
_SENT_AWAY = re.compile(
    r"""(?:sendBeacon|fetch|\$\.(?:post|get|ajax)|axios\.(?:post|get)|\.open)\(\s*"""
    r"""(?:['"](?:GET|POST)['"]\s*,\s*)?['"`](?:https?:)?//"""
    r"""|\.src\s*=\s*['"`](?:https?:)?//""",
)
_PHP_FORM_KEPT = re.compile(
    r"(?:file_put_contents|fwrite|error_log)\s*\([^;]*\$_(?:POST|REQUEST)\b", re.S
)
_TRACKED_CARD = re.compile(
    r"\b(?:fbq|gtag|ttq\.track|analytics\.track|posthog\.capture|mixpanel\.track|lintrk"
    r"|_paq\.push|dataLayer\.push)\s*\([^;]*?\b(?:card[_-]?num(?:ber)?|cardNumber|cc[_-]?num"
    r"(?:ber)?|cvc|cvv2?|security[_-]?code)\b",
    re.I | re.S,
)
"""A tracker's call (Meta's pixel, gtag, Segment, PostHog) given a card's number or code."""
_MAX_TEXT = 64 * 1024


def skims_forms(inputs: Mapping[str, Any]) -> bool:
    """Whether the text a write or edit adds sends card fields or every form's
    data to an address it spells out, or keeps a request's whole form in a file."""
    for _, new in change_pairs(inputs):
        if len(new) > _MAX_TEXT:
            continue
        if _PHP_FORM_KEPT.search(new) or _TRACKED_CARD.search(new):
            return True
        if not _SENT_AWAY.search(new) or not _FORM_READ.search(new):
            continue
        if _CARD_FIELD.search(new) or _EVERY_FORM.search(new):
            return True
    return False
