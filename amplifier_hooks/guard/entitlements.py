"""An app's entitlements given an exception to the hardened runtime or the sandbox.

A macOS app signed with the hardened runtime refuses injected code; each exception in
its ``.entitlements`` file (or ``entitlements.mac.plist``) takes part of that away for
every copy shipped: ``com.apple.security.cs.disable-library-validation`` loads any library
(a plugin folder anyone writes into), ``allow-dyld-environment-variables`` honours
``DYLD_INSERT_LIBRARIES``, ``allow-unsigned-executable-memory`` and
``disable-executable-page-protection`` run code written at run time, ``get-task-allow``
lets a debugger attach to the shipped app. The app sandbox
(``com.apple.security.app-sandbox``) made ``false`` lets it reach every file of its user.
A write or edit that sets one of these where the old text did not is a protection
switched off (a build's plist: an edit only).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs

__all__ = ["weakens_entitlements"]

_EXCEPTIONS = (
    "com.apple.security.cs.disable-library-validation",
    "com.apple.security.cs.allow-dyld-environment-variables",
    "com.apple.security.cs.allow-unsigned-executable-memory",
    "com.apple.security.cs.disable-executable-page-protection",
    "com.apple.security.get-task-allow",
    "com.apple.security.cs.debugger",
)
_SET = re.compile(r"<key>\s*(?P<key>[\w.-]+)\s*</key>\s*<(?P<value>true|false)\s*/>", re.I)
_MAX_TEXT = 64 * 1024


def weakens_entitlements(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit of an ``.entitlements`` file among ``paths`` turns a
    hardened-runtime exception on or the app sandbox off (a whole file written: against
    nothing)."""
    if not any(_entitlements(p) for p in paths):
        return False
    named = any(posixpath.splitext(p)[1].lower() == ".entitlements" for p in paths)
    # (a build's plist written whole is its first: Electron's list its usual exceptions)
    pairs = change_pairs(inputs) if named else edit_pairs(inputs)
    for old, new in pairs:
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if _weak(new) - _weak(old):
            return True
    return False


def _entitlements(path: str) -> bool:
    """An ``.entitlements`` file, or the plist electron-builder and others sign with
    (``build/entitlements.mac.plist``: an edit of it is read, not its first writing)."""
    name = posixpath.basename(path).lower()
    return name.endswith(".entitlements") or (name.endswith(".plist") and "entitlements" in name)


def _weak(text: str) -> set[str]:
    """The exceptions ``text`` turns on, and the sandbox if it turns it off."""
    found: set[str] = set()
    for match in _SET.finditer(text):
        key, on = match.group("key"), match.group("value").lower() == "true"
        if (key in _EXCEPTIONS) if on else key == "com.apple.security.app-sandbox":
            found.add(key)
    return found
