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
- an experiment's assignment replaced by a constant in the experiments module;
- the ad platforms' measurement of the site taken away: conversion tracking switched off,
  their click ids (``gclid``, ``fbclid``, ``msclkid``) added to a list of parameters
  stripped from landing pages, or an ad account's tracking template sent through another
  host (every click then passes through it): budgets are then spent blind, or the clicks
  are another company's to read.
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
_CONVERSIONS = (
    r"(?P<key>conversion[_-]?tracking|conversions?[_-]?api|capi|offline[_-]?conversions)\w*"
    r"[\"']?\s*[:=]\s*(?:\n\s*[\"']?enabled[\"']?\s*[:=]\s*)?[\"']?"
)
_MEASURED = re.compile(_CONVERSIONS + r"(?:true|yes|on|1)\b", re.I)
_UNMEASURED = re.compile(_CONVERSIONS + r"(?:false|no|off|0)\b", re.I)
_CLICK_IDS_STRIPPED = re.compile(
    r"(?i)\b\w*(?:strip|remove|drop|block|sanitiz|clean|deny)\w*\b[^\n]*?"
    r"\b(?:gclid|gbraid|wbraid|fbclid|ttclid|msclkid|li_fat_id|dclid|twclid)\b"
)
"""A list of query parameters a site strips from its landing pages, given an ad click's
id: the platforms no longer see which click led to a sale."""
_TEMPLATE_HOST = re.compile(
    r"(?i)(?:tracking[_-]?(?:url[_-]?)?template|final[_-]?url[_-]?suffix)\w*[\"']?\s*[:=]\s*"
    r"[\"']?https?://(?P<host>[\w.-]+)"
)
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
        if _measure_taken(old, new):
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


def _measure_taken(old: str, new: str) -> bool:
    """Conversion tracking switched off, click ids stripped, or a tracking template sent
    through a host the old text did not name (module doc)."""
    was = {m["key"].lower() for m in _MEASURED.finditer(old)}
    if was and not was.isdisjoint(m["key"].lower() for m in _UNMEASURED.finditer(new)):
        return True
    if more(_CLICK_IDS_STRIPPED, old, new):
        return True
    return any(m["host"] not in old for m in _TEMPLATE_HOST.finditer(new))
