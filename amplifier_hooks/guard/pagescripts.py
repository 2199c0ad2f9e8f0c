"""An edit that makes every visitor's browser run a script no one can check.

A page's ``<script src>`` (or Next.js's ``<Script src>``) runs with the site's cookies and
its users' sessions. Added over plain HTTP, anyone on the network path swaps it; from a
moving version of a package CDN (``chart.js@latest``, a GitHub file ``@master``) without
``integrity``, whoever publishes next decides what runs; from a domain known to have been
taken over to serve malware (``polyfill.io``), it is malware. A script tag the edit adds
that is any of these is marked `PAGE_SCRIPT_UNCHECKED` (asked); a vendor's own tag
(``googletagmanager.com/gtag/js``), a pinned version, or one held by ``integrity``, is not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs

__all__ = ["PAGE_SCRIPT_UNCHECKED", "adds_unchecked_script"]

PAGE_SCRIPT_UNCHECKED = "@page-script-unchecked"
_TAG = re.compile(r"<[Ss]cript\b[^>]*?\bsrc\s*=\s*\{?[\"'](?P<url>[^\"']+)[\"'][^>]*>")
_TAKEN_OVER = re.compile(
    r"^https?://(?:[\w-]+\.)*(?:polyfill\.io|polyfill\.com|polyfillcache\.com|bootcdn\.net"
    r"|bootcss\.com|staticfile\.org|staticfile\.net|unionadjs\.com)(?:[:/]|$)",
    re.I,
)
_MOVING = re.compile(r"@(?:latest|master|main|HEAD|next|canary)(?:/|$)|/latest/", re.I)
_LOCAL = re.compile(r"^http://(?:localhost|127\.|\[::1\]|0\.0\.0\.0)", re.I)
_MAX_TEXT = 64 * 1024


def adds_unchecked_script(inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit adds a page script over plain HTTP, from a moving version
    without ``integrity``, or from a domain taken over."""
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT or "script" not in new.lower():
            continue
        before = {m.group(0) for m in _TAG.finditer(old)}
        for found in _TAG.finditer(new):
            if found.group(0) not in before and _unchecked(found.group(0), found["url"]):
                return True
    return False


def _unchecked(tag: str, url: str) -> bool:
    if url.startswith("http://") and not _LOCAL.match(url):
        return True
    if _TAKEN_OVER.match(url):
        return True
    return _MOVING.search(url) is not None and "integrity" not in tag
