"""An edit that makes an iOS or macOS app keep or hand over what it should guard.

In its ``Info.plist`` and entitlements: ``get-task-allow`` in a shipped build (any debugger
attaches and reads its memory), a keychain access group of ``*`` (every app of the team
reads its items), files without data protection (``NSFileProtectionNone``), its Documents
folder shared with the Files app. In its Swift: a keychain item readable while the device
is locked (``kSecAttrAccessibleAlways``) or synced to iCloud, a key's biometric or
passcode requirement dropped, a file written without protection, a token or a password
put in ``UserDefaults``, iCloud's key-value store or the pasteboard, credentials kept at
logout (``SecItemDelete`` taken out), a web view whose file pages read anything, which
reads the whole file system, is inspectable in release builds, gives its native bridge to
every page's scripts or a shell, is handed the session's token, or lets any site in (its
host or origin check taken out), and Firebase App Check's debug provider outside a debug
build. Each is a line or two, and every installed copy has it from the next release on:
a protection switched off (`switchedoff`'s mark, asked). Code inside ``#if DEBUG`` never
ships and is not read; nor is a test's file."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import dropped, more
from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["weakens_apple_app"]

_SUFFIXES = (".swift", ".m", ".mm", ".plist", ".entitlements", ".h")
_GIVEN = re.compile(
    r"get-task-allow</key>\s*<true\s*/>|<string>\$\(AppIdentifierPrefix\)\*</string>"
    r"|<string>NSFileProtectionNone</string>|UIFileSharingEnabled</key>\s*<true\s*/>"
    r"|\bkSecAttrAccessibleAlways(?:ThisDeviceOnly)?\b"
    r"|\bkSecAttrSynchronizable\b[^\n]*(?:kCFBooleanTrue|\btrue\b)"
    r"|\.noFileProtection\b|\bFileProtectionType\.none\b|\bNSFileProtectionNone\b"
    r"|\bSecAccessControlCreateWithFlags\([^)]*,\s*\[\s*\]\s*,"
    r"|\b(?:UserDefaults|NSUbiquitousKeyValueStore)\b[^\n]*\.set\([^\n]*(?:[Tt]oken|[Pp]assword|[Ss]ecret)"
    r"|\bUIPasteboard\.general\.string\s*=[^\n]*(?:[Tt]oken|[Pp]assword|[Ss]ecret)"
    r"|\b(?:allowFileAccessFromFileURLs|allowUniversalAccessFromFileURLs)\b"
    r"|allowingReadAccessTo:\s*URL\(\s*fileURLWithPath:\s*\"/\"\s*\)"
    r"|\bisInspectable\s*=\s*true\b|\bcontentWorld:\s*\.page\b"
    r"|\bevaluateJavaScript\([^\n]*(?:[Tt]oken|[Pp]assword|[Ss]ession)"
    r"|userContentController\.add\(\s*\w*(?:Shell|Process|Exec)\w*\("
    r"|\bAppCheckDebugProviderFactory\b"
    r"|#if\s+[^\n]*\|\|\s*(?:true|RELEASE)\b"
    r"|\b\w*(?:disable_?[Pp]inning|[Pp]inning_?[Dd]isabled|skip_?[Pp]inning)\w*"
    r"|\bskip\w*(?:StepUp|Auth|Confirm|Verification)\w*\s*:\s*true\b"
    r"|\.impersonating\(|\badopt\(\s*accessToken\s*:|\benable\w*(?:Staff|Admin|Debug|God)Mode\("
    r"|(?s:queryItems\?.{0,160}?\.value\b.{0,200}?appendingPathComponent\(\s*\w+\s*\))"
    r"|<string>(?:applinks|webcredentials|activitycontinuation):\*\."
    r"|\bisExpired\s*:\s*Bool\s*\{\s*(?:return\s+)?false\s*\}"
    r"|<key>\w*(?:Secret|PrivateKey)</key>\s*<string>[^<$]{8,}</string>"
)
"""What an app's new text gives away (module doc)."""
_CHECKS = re.compile(
    r"\b(?:allowed|trusted|pinned|partner|associated)\w*\.contains\(|\.isMainFrame\b"
    r"|\bSecItemDelete\(|\bSecTrustEvaluate\w*\(|\bshow\w*Confirm\w*\(|\brequestTrackingAuthorization\b"
    r"|\bcanOpenURL\b|\burl\.host\s*==|\bhost\s*==\s*\"[\w.-]+\""
)
"""A web view's or a link's host or origin check, a keychain item's deletion at logout."""
_DEBUG_ONLY = re.compile(r"#if\s+DEBUG[ \t]*\n.*?(?:#endif|\Z)", re.S)
_MAX_TEXT = 64 * 1024


def weakens_apple_app(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of an Apple app's code or settings gives away what it guards."""
    if not any(p.endswith(_SUFFIXES) and not test_code(p) for p in paths):
        return False
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        old, new = _DEBUG_ONLY.sub("", old), _DEBUG_ONLY.sub("", new)
        if more(_GIVEN, old, new) or (old and dropped(_CHECKS, old, new)):
            return True
    return False
