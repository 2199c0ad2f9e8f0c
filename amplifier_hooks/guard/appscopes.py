"""A chat app's manifest given scopes that read what people write or who they are.

Slack's app manifest (``manifest.json``/``manifest.yml``, ``oauth_config.scopes``) and a
Discord or Teams bot's settings list what the app may reach once installed: adding
``channels:history``, ``im:history`` or ``users:read.email`` lets it read every message
of the channels and direct messages it is in, or every member's e-mail address, from the
next install on; so does a HubSpot app's ``requiredScopes`` given write, delete or export
of CRM records, and a Salesforce profile or permission set given ``ViewAllData``,
``ModifyAllData`` or the administration of users and code, and a SMART on FHIR app's
scopes given every resource type (``user/*.*``, ``system/*.read``: every patient's
record, in whichever file the app keeps them). An edit that adds such a
scope or permission, one the old text did not name, is marked `APP_SCOPES_WIDENED`
(asked).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["APP_SCOPES_WIDENED", "widens_app_scopes"]

APP_SCOPES_WIDENED = "@app-scopes-widened"
_MANIFESTS = frozenset({"manifest.json", "manifest.yml", "manifest.yaml", "slack-manifest.json",
                        "slack-manifest.yml", "app-manifest.json", "app-manifest.yml",
                        "app.json", "public-app.json", "app-hsmeta.json"})  # fmt: skip
_SCOPE = re.compile(
    r"\b(?:channels|groups|im|mpim):history\b|\busers:read\.email\b|\bfiles:read\b"
    r"|\badmin(?:\.[\w.]+)?(?::[\w.]+)?\b|\bsearch:read\b|\busers\.profile:read\b"
    r"|\b(?:channels|groups|im|mpim):(?:write|manage)\b|\bchat:write\.customize\b"
    r"|\bMessageContent\b|\bGUILD_MEMBERS\b|\bChannelMessage\.Read\.All\b|\bChat\.Read\.All\b"
    r"|\bcrm\.[\w.]+\.(?:write|delete)\b|\bcrm\.export\b|\bsettings\.users(?:\.[\w]+)?\.write\b"
    r"|\borg_deploy_enabled:\s*true\b"
)
"""Scopes that read people's messages, files or addresses, or administer the workspace."""
_SMART_ALL = re.compile(r"\b(?:user|system|patient)/\*\.(?:\*|read|write|[cruds]+)(?!\w)")
"""A SMART on FHIR scope over every resource type."""
_MAX_TEXT = 64 * 1024


def widens_app_scopes(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of a chat app's manifest among ``paths`` adds a scope of
    `_SCOPE` its old text did not name."""
    pairs = edit_pairs(inputs)
    if any(more(_SMART_ALL, old, new) for old, new in pairs if len(old) + len(new) <= _MAX_TEXT):
        return True
    profiles = any(p.endswith(_SALESFORCE) for p in paths)
    if not profiles and not any(posixpath.basename(p).lower() in _MANIFESTS for p in paths):
        return False
    for old, new in pairs:
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if set(_SCOPE.findall(new)) - set(_SCOPE.findall(old)):
            return True
        if profiles and set(_GRANTED.findall(new)) - set(_GRANTED.findall(old)):
            return True
    return False


_SALESFORCE = (".profile-meta.xml", ".permissionset-meta.xml")
_GRANTED = re.compile(
    r"<enabled>true</enabled>\s*<name>((?:View|Modify)AllData|ManageUsers|AuthorApex"
    r"|CustomizeApplication|ModifyMetadata|ManageInternalUsers|ViewAllUsers|ApiEnabled"
    r"|ManageProfilesPermissionsets|ExportReport)</name>"
)
"""A Salesforce profile's or permission set's powerful permission switched on (an org's
every record read or changed, its users or code administered)."""
