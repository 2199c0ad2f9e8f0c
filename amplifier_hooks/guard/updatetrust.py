"""An edit that weakens what an app's updates and releases are trusted by.

A desktop app installs what its update feed serves. The feed's signing key (Sparkle's
``SUPublicEDKey``, ``SUPublicDSAKeyFile``) taken out, or electron-updater's
``verifyUpdateCodeSignature`` set ``false``, and every installed copy runs whatever the
feed (or anyone between) serves: `UPDATES_UNVERIFIED`, denied. Milder, asked as
`RELEASES_WEAKENED`: the feed's address made plain ``http://`` (an ``https://`` one
downgraded, or a feed URL set on another machine's plain http), the feed moved to another
address in electron-updater's ``app-update.yml``, downgrades allowed
(``allowDowngrade = true``), a package repository's signing switched off (reprepro's
``SignWith: no``), or a signing certificate's password written into a build file (not the
debug keystore's well-known ``android``, nor Java's ``changeit``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs

__all__ = ["RELEASES_WEAKENED", "UPDATES_UNVERIFIED", "update_marks"]

UPDATES_UNVERIFIED = "@updates-unverified"
RELEASES_WEAKENED = "@releases-weakened"
_FEED_KEY = re.compile(
    r"SUPublicEDKey|SUPublicDSAKeyFile|SUPublicDSAKey\b|codeSigningCertificate|CodePushPublicKey"
    r"|EXUpdatesCodeSigningCertificate"
)
"""The key an app checks its updates with (Sparkle's; Expo's and CodePush's over-the-air
bundles')."""
_UNVERIFIED = re.compile(r"verifyUpdateCodeSignature\s*[:=]\s*false", re.I)
_HTTPS = re.compile(r"https://([\w.-]+[^\s\"'<>]*)")
_FEED_HTTP = re.compile(
    r"(?:setFeedURL|SUFeedURL|feedURL|updateURL|update_url)[^\n]{0,120}?http://"
    r"(?!localhost\b|127\.|\[::1\])",
    re.I,
)
_WEAK = re.compile(
    r"allowDowngrade\s*[:=]\s*true|^\s*SignWith\s*:\s*no\b"
    r"|(?:certificate|keystore|store|key|csc[_-]?key|signing|p12|pfx)[_-]?password\s*[:=]\s*"
    r"[\"'](?![$%{]|android[\"']|changeit[\"'])[^\"'\s]{4,}[\"']",
    re.I | re.M,
)
_FEED_FILES = frozenset({"app-update.yml", "dev-app-update.yml", "appcast.xml"})
"""electron-updater's feed settings (shipped inside the app) and Sparkle's appcast."""
_URL = re.compile(r"https?://[^\s\"'<>]+")
_MAX_TEXT = 64 * 1024


def update_marks(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """`UPDATES_UNVERIFIED` or `RELEASES_WEAKENED` (or nothing) for what a write or edit
    of ``paths`` adds or takes away."""
    marks: tuple[str, ...] = ()
    feed = any(p.rpartition("/")[2] in _FEED_FILES for p in paths)
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if feed and _URL.findall(old) and set(_URL.findall(new)) - set(_URL.findall(old)):
            marks = (RELEASES_WEAKENED,)  # the feed moved to another address
        if len(_FEED_KEY.findall(new)) < len(_FEED_KEY.findall(old)):
            return (UPDATES_UNVERIFIED,)
        downgraded = {f"http://{rest}" for rest in _HTTPS.findall(old)} & set(
            re.findall(r"http://[\w.-]+[^\s\"'<>]*", new)
        )
        if downgraded and not all(_local(url) for url in downgraded):
            marks = (RELEASES_WEAKENED,)
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_UNVERIFIED, old, new):
            return (UPDATES_UNVERIFIED,)
        for pattern in (_FEED_HTTP, _WEAK):
            if more(pattern, old, new):
                marks = (RELEASES_WEAKENED,)
    return marks


def _local(url: str) -> bool:
    host = url[len("http://") :].split("/", 1)[0].split(":", 1)[0]
    return host in ("localhost", "127.0.0.1", "[::1]") or host.endswith(".localhost")
