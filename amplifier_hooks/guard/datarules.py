"""An edit that opens a hosted backend's data, or its sign-in, to anyone.

Firebase, Supabase, Hasura and PocketBase serve their data straight to every browser: the
app's own code is not in between, only the backend's rules. An edit of those rules that
lets anyone in changes who reads every row from the next deploy on:

- Firebase's security rules (``firestore.rules``, ``storage.rules``): an ``allow`` made
  unconditional (``if true``, or no condition at all) or open until a date (the console's
  test mode, ``if request.time < timestamp.date(...)``);
- the Realtime Database's rules (``database.rules.json``): ``".read": true``,
  ``".write": true``;
- SQL (a migration, a policy): a row-level security policy that holds for every row
  (``using (true)``, ``with check (true)``), row level security disabled, a grant to
  ``anon`` or ``public``;
- Hasura's permissions for the anonymous role with no row filter (``filter: {}``);
- PocketBase's API rules made empty (``listRule: ""``: anyone);
- Supabase's sign-in settings weakened (``config.toml``: email confirmations, the second
  confirmation of an email change, the reauthentication before a password change turned
  from true to false; anonymous sign-ins turned on).

Each counts when the new text has more of it than the old, and is marked `DATA_OPENED`
(asked: a person reads the rule).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import live_matches, more
from amplifier_hooks.guard.ignorefiles import change_pairs, edit_pairs

__all__ = ["DATA_OPENED", "opens_data"]

DATA_OPENED = "@data-rules-opened"
_METHOD = r"(?:read|write|get|list|create|update|delete)"
_METHODS = rf"{_METHOD}(?:\s*,\s*{_METHOD})*"
"""The request kinds a Firebase rule allows (nginx's ``allow all;`` is no such rule)."""
_OPENED = re.compile(
    rf"\ballow\s+{_METHODS}\s*:\s*if\s+(?:true\b|request\.time\s*<)"  # Firebase's rules
    rf"|\ballow\s+{_METHODS}\s*;"  # (no condition: always)
    r"|[\"']\.(?:read|write)[\"']\s*:\s*(?:true\b|[\"']true[\"'])"  # the Realtime Database's
    r"|\b(?:using|with\s+check)\s*\(\s*true\s*\)"  # a row-level security policy's
    r"|\b(?:using|with\s+check)\s*\(\s*(?:current_user|session_user|auth\.role\(\))\s+is\s+not\s+null\s*\)"
    r"|\b(?:using|with\s+check)\s*\(\s*[\w\"]+\s+is\s+not\s+null\s+or\b"
    r"|\bdisable\s+row\s+level\s+security\b"
    r"|\bgrant\s+[\w\s,]+?\bon\b[^;]{0,200}?\bto\s+(?:anon|public)\b"
    r"|\brole:\s*(?:anonymous|anon|public|guest)\b[^\n]*\n(?:[ \t]+[^\n]*\n){0,6}?"
    r"[ \t]+(?:filter|check):\s*\{\s*\}"  # Hasura's permission with no row filter
    r"|\b(?:list|view|create|update|delete)Rule[\"']?\s*[:=]\s*(?:\"\"|'')",  # PocketBase's
    re.IGNORECASE,
)
_SIGN_IN = r"(?:enable_confirmations|double_confirm_changes|secure_password_change)"
_SIGN_IN_ON = re.compile(rf"^\s*{_SIGN_IN}\s*=\s*true\b", re.MULTILINE)
_SIGN_IN_OFF = re.compile(rf"^\s*{_SIGN_IN}\s*=\s*false\b", re.MULTILINE)
_ANONYMOUS_ON = re.compile(r"^\s*enable_anonymous_sign_ins\s*=\s*true\b", re.MULTILINE)
_RLS_ON = re.compile(r"\b(?:enable|force)\s+row\s+level\s+security\b", re.I)
_MAX_TEXT = 64 * 1024


def opens_data(inputs: Mapping[str, Any]) -> bool:
    """Whether the text a write or edit adds opens a backend's data or sign-in to anyone."""
    for old, new in change_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if more(_OPENED, old, new):
            return True
        if more(_ANONYMOUS_ON, old, new):
            return True
        if old and live_matches(_RLS_ON, new) < live_matches(_RLS_ON, old):
            return True  # `ALTER TABLE .. ENABLE ROW LEVEL SECURITY` taken out or commented
    for old, new in edit_pairs(inputs):  # (a new config.toml's defaults are no change)
        if len(_SIGN_IN_ON.findall(new)) < len(_SIGN_IN_ON.findall(old)) and _SIGN_IN_OFF.search(
            new
        ):
            return True
    return False
