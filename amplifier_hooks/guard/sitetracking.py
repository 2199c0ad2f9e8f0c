"""An edit that changes whom a website's pages send their visitors' data to, or what they
tell search engines and caches, for every visitor from the next deploy.

Marked `SITE_CHANGED` (asked):
- a tracking ID replaced by another (Tag Manager's ``GTM-...``, Analytics' ``G-...``, an ad
  pixel's partner ID): the visitors' data goes to another account;
- a Tag Manager template's permissions widened to any address (``https://*/*``);
- the site hidden from search engines (``index: false``, ``noindex``, ``Disallow: /``);
- every page's canonical link pointed at one address, or a section's redirects collapsed
  onto the home page;
- every path cached as immutable for a year (``/*`` in a ``_headers`` file);
- an experiment's assignment replaced by a constant in the experiments module.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["SITE_CHANGED", "changes_site"]

SITE_CHANGED = "@site-changed"
_TRACKING_ID = re.compile(
    r"\bGTM-[A-Z0-9]{4,}\b|\bG-[A-Z0-9]{6,}\b|\bUA-\d{4,}-\d+\b|\bAW-\d{6,}\b"
    r"|_linkedin_partner_id\s*=\s*[\"']\d+[\"']|fbq\(\s*['\"]init['\"]\s*,\s*['\"]\d+['\"]"
)
_ANY_URL = re.compile(r"""["']https?://\*/\*["']""")
_DEINDEX = re.compile(r"\bindex\s*:\s*false\b|noindex|^\s*Disallow\s*:\s*/\s*$", re.I | re.M)
_INDEXED = re.compile(r"\bindex\s*:\s*true\b")
_CANONICAL = re.compile(r"""rel=["']canonical["'][^>]*href=(\{?`|["'])([^"'`]*)""")
_HOME_REDIRECT = re.compile(
    r"""["']source["']\s*:\s*["'][^"']*(?::\w+\*|\*)[^"']*["']\s*,\s*"""
    r"""["']destination["']\s*:\s*["']/["']"""
)
"""A redirect of a whole section (``/blog/:path*``) onto the home page."""
_EVERY_PATH_BLOCK = re.compile(r"^/\*[ \t]*\n((?:[ \t]+[^\n]*(?:\n|$))*)", re.M)
"""A ``_headers`` file's block for every path (``/*`` and its indented headers)."""
_FLAG_CALL = re.compile(
    r"\b(?:getFeatureValue|isOn|getVariant|getVariation|variation|isFeatureEnabled|"
    r"getExperiment|activate)\s*\("
)
_LITERAL_RETURN = re.compile(r"""\breturn\s+["'][\w-]+["']""")
_MAX_TEXT = 64 * 1024


def changes_site(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of ``paths`` changes whom the site sends its visitors' data to, or
    what it tells search engines and caches (module doc)."""
    names = [posixpath.basename(p).lower() for p in paths]
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        before, after = set(_TRACKING_ID.findall(old)), set(_TRACKING_ID.findall(new))
        if before and after and after - before:
            return True
        for pattern in (_ANY_URL, _HOME_REDIRECT):
            if more(pattern, old, new):
                return True
        if more(_DEINDEX, old, new) and len(_INDEXED.findall(new)) < max(
            1, len(_INDEXED.findall(old))
        ):
            return True  # (a preview's noindex beside production's `index: true`: kept)
        if _flattened(old, new):
            return True
        if "_headers" in names and _immutable_all(new) and not _immutable_all(old):
            return True
        if any("experiment" in n for n in names) and _forced(old, new):
            return True
    return False


def _immutable_all(text: str) -> bool:
    """Every path's headers cache it as immutable (``/*`` with ``immutable``)."""
    return any("immutable" in block for block in _EVERY_PATH_BLOCK.findall(text))


def _flattened(old: str, new: str) -> bool:
    """A canonical link that named each page (a ``${path}``) made one fixed address."""
    was = [href for _, href in _CANONICAL.findall(old)]
    now = [href for _, href in _CANONICAL.findall(new)]
    return any("${" in h for h in was) and bool(now) and not any("${" in h for h in now)


def _forced(old: str, new: str) -> bool:
    """An experiment's assignment (a flag evaluated) replaced by a constant it returns."""
    return (
        bool(_FLAG_CALL.search(old))
        and not _FLAG_CALL.search(new)
        and bool(_LITERAL_RETURN.search(new))
    )
