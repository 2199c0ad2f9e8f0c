"""An edit of a browser extension's ``manifest.json`` that widens what it may do.

A new permission that reads or steers the person's browsing (``cookies``, ``history``,
``webRequest``, ``nativeMessaging``, ``management``, ``debugger``, ``proxy``...), a host
pattern for every site (``<all_urls>``, ``*://*/*``, ``https://*/*``), pages of any site
allowed to talk to it (``externally_connectable``) or its pages' scripts allowed to run
text as code (``'unsafe-eval'``) reaches every page the person opens, with their sessions,
from the next release on, and stores review it as such. An edit that adds one of them is
marked `EXTENSION_WIDENED` (asked); a version bump, a narrower host (``https://*.acme.io/*``)
or a permission such as ``storage`` is an ordinary edit.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["EXTENSION_WIDENED", "widened", "widens_extension"]

EXTENSION_WIDENED = "@extension-permissions-widened"
_WIDE = re.compile(
    r"""["'](?:<all_urls>|(?:\*|https?|wss?|ftp|file)://\*/[^"']*|cookies|history|webRequest
    |webRequestBlocking|nativeMessaging|management|debugger|proxy|privacy|downloads
    |clipboardRead|tabCapture|desktopCapture|contentSettings|browsingData|topSites)["']
    |externally_connectable|'unsafe-eval'|'unsafe-inline'|'wasm-unsafe-eval'""",
    re.VERBOSE,
)


def widens_extension(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether a file tool's edit ``inputs`` of a ``manifest.json`` among ``paths`` adds a
    permission, host or policy that `_WIDE` names and its old text did not hold."""
    if not any(posixpath.basename(p) == "manifest.json" for p in paths):
        return False
    return any(widened(old, new) for old, new in edit_pairs(inputs))


def widened(old: str, new: str) -> bool:
    """Whether ``new`` holds a permission, host or policy of `_WIDE` that ``old`` did not
    (``old``: empty for lines a patch adds)."""
    had = {m.group(0) for m in _WIDE.finditer(old)}
    return any(m.group(0) not in had for m in _WIDE.finditer(new))
