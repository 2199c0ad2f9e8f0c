"""An edit that makes an Android app give more away to other apps or to itself.

In ``AndroidManifest.xml``: ``android:debuggable="true"`` in the shipped build (anyone with
the phone attaches a debugger and reads its memory), a content provider exported to every
app, a service or a receiver exported with no permission to call it, a permission the Play
Store restricts (SMS, the call log, location in the background, every file, installing
packages, an accessibility service's). In the app's code: Firebase App Check's debug
provider, which accepts any client that knows the debug token, put where Play Integrity
was. Each is one attribute or line, and from the next release on every installed copy has
it; so does a WebView whose pages read local files across origins, a ``PendingIntent``
made mutable, and R8's rules told not to obfuscate, or their stripping of debug logs taken
out. An Android app's debug source set (``src/debug/``) never ships and is not read; an
edit is marked `ANDROID_APP_WIDENED` (asked)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["ANDROID_APP_WIDENED", "widens_android_app"]

ANDROID_APP_WIDENED = "@android-app-widened"
_DEBUGGABLE = re.compile(r"\bandroid:debuggable\s*=\s*[\"']true[\"']")
_TAG = re.compile(r"<(?P<kind>provider|service|receiver)\b[^<>]*")
_EXPORTED = re.compile(r"\bandroid:exported\s*=\s*[\"']true[\"']")
_GUARDED = re.compile(r"\bandroid:(?:readP|writeP|p)ermission\s*=")
_RESTRICTED = re.compile(
    r"android\.permission\.(?:READ_SMS|RECEIVE_SMS|SEND_SMS|RECEIVE_MMS|READ_CALL_LOG"
    r"|WRITE_CALL_LOG|PROCESS_OUTGOING_CALLS|ACCESS_BACKGROUND_LOCATION|MANAGE_EXTERNAL_STORAGE"
    r"|QUERY_ALL_PACKAGES|REQUEST_INSTALL_PACKAGES|BIND_ACCESSIBILITY_SERVICE|BIND_DEVICE_ADMIN"
    r"|WRITE_SETTINGS|PACKAGE_USAGE_STATS|READ_PHONE_NUMBERS|BIND_NOTIFICATION_LISTENER_SERVICE)\b"
)
_UNEXPORTED = re.compile(r"\bandroid:exported\s*=\s*[\"']false[\"']")
_NO_BACKUP = re.compile(r"\bandroid:allowBackup\s*=\s*[\"']false[\"']")
_BACKUP = re.compile(r"\bandroid:allowBackup\s*=\s*[\"']true[\"']")
_VERIFIED = re.compile(r"\bandroid:autoVerify\s*=\s*[\"']true[\"']")
"""An App Link verified against the site: without it, any app may claim the link (a
sign-in's callback)."""
_WEBVIEW_FILES = re.compile(
    r"\ballow(?:Universal|File)AccessFromFileURLs\s*=\s*true\b"
    r"|\bsetAllow(?:Universal|File)AccessFromFileURLs\(\s*true\s*\)"
)
_MUTABLE = re.compile(r"\bPendingIntent\.FLAG_MUTABLE\b")
_RULES = re.compile(r"(?:proguard|consumer|r8)[\w.-]*\.(?:pro|txt|cfg)$", re.I)
_NO_OBFUSCATION = re.compile(
    r"^\s*-dont(?:obfuscate|shrink|optimize)\b|^\s*-keep\w*\s+class\s+(?:\*\*|\w+(?:\.\w+){0,2}\.\*\*)\s*\{",
    re.M,
)
_STRIPS = re.compile(r"^\s*-assume(?:nosideeffects|values)\b", re.M)
_KEEPS = re.compile(r"^\s*-keep\w*\b", re.M)
_DEBUG_CHECK = re.compile(r"\bDebugAppCheckProviderFactory\b")
_DEBUG_ONLY = re.compile(r"\bBuildConfig\.DEBUG\b|\bif\s*\(\s*DEBUG\b")
_DEBUG_SET = re.compile(r"/src/debug/")
_CODE = (".kt", ".java")
_MAX_TEXT = 64 * 1024


def widens_android_app(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether a write or edit of an app's manifest or code among ``paths`` gives more
    away (module doc)."""
    shipped = [p for p in paths if not _DEBUG_SET.search(p) and not test_code(p)]
    manifest = any(posixpath.basename(p) == "AndroidManifest.xml" for p in shipped)
    code = any(p.endswith(_CODE) for p in shipped)
    rules = any(_RULES.search(posixpath.basename(p)) for p in shipped)
    if not manifest and not code and not rules:
        return False
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if manifest and _manifest_widened(old, new):
            return True
        if code and more(_DEBUG_CHECK, old, new) and not _DEBUG_ONLY.search(new):
            return True
        if code and (more(_WEBVIEW_FILES, old, new) or more(_MUTABLE, old, new)):
            return True
        if rules and _rules_weakened(old, new):
            return True
    return False


def _manifest_widened(old: str, new: str) -> bool:
    """Debuggable, a restricted permission, a component exported, backups of the app's
    data switched on, a link's verification taken away."""
    if more(_DEBUGGABLE, old, new) or more(_RESTRICTED, old, new) or _opened(old) < _opened(new):
        return True
    if _UNEXPORTED.search(old) and len(_UNEXPORTED.findall(new)) < len(_UNEXPORTED.findall(old)):
        return more(_EXPORTED, old, new)  # `android:exported="false"` made `"true"`
    if _NO_BACKUP.search(old) and _BACKUP.search(new):
        return True
    return len(_VERIFIED.findall(new)) < len(_VERIFIED.findall(old))


def _rules_weakened(old: str, new: str) -> bool:
    """R8's rules told not to obfuscate or to keep every class, or its stripping of logs and
    debug code, or a keep rule, taken out."""
    if more(_NO_OBFUSCATION, old, new):
        return True
    return any(
        len(pattern.findall(new)) < len(pattern.findall(old)) for pattern in (_STRIPS, _KEEPS)
    )


def _opened(text: str) -> int:
    """The providers exported, and the services and receivers exported with no permission."""
    return sum(
        1
        for tag in _TAG.finditer(text)
        if _EXPORTED.search(tag.group(0))
        and (tag["kind"] == "provider" or not _GUARDED.search(tag.group(0)))
    )
