"""An edit that changes where a package's users are asked to send money.

``package.json``'s ``funding`` (what ``npm fund`` prints) names the accounts a project's
users sponsor; an edit that puts an address there the old text did not name sends that
money to someone else, and reads as a one-line metadata change. An edit of the
repository's ``FUNDING.yml`` that names an account or an address its old text did not
(``custom: ["https://paypal.me/someone"]``; a platform added for an account the file already
names, ``liberapay: loomjs`` beside ``github: [loomjs]``, is the project's own) is marked
the same; any other change of it (a whole file written, a shell's write) is judged by its
place (the pack's ``funding-file-change``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["FUNDING_CHANGED", "changes_funding"]

FUNDING_CHANGED = "@funding-changed"
_MANIFESTS = frozenset({"package.json", "composer.json", "pyproject.toml", "Cargo.toml"})
_ADDRESS = re.compile(r"""(?:https?://|bitcoin:|ethereum:)[^\s"'<>\]),]+""", re.I)
_FIELD = re.compile(r"""["']?funding["']?\s*[:=]|\bFunding\b\s*=|\[project\.urls\][^\[]*fund""",
                    re.I)  # fmt: skip
_PLATFORMS = re.compile(
    r"opencollective\.com|github\.com/sponsors|patreon\.com|ko-fi\.com|buymeacoffee\.com"
    r"|liberapay\.com|tidelift\.com|paypal\.(?:me|com)|polar\.sh|thanks\.dev|issuehunt\.io",
    re.I,
)
"""Sponsorship platforms: an address of one replaced is the funding field's, even where a
patch's hunk shows only the lines it changes."""
_MAX_TEXT = 64 * 1024
_FUNDING_FILES = frozenset({"FUNDING.yml", "FUNDING.yaml"})
_ACCOUNT = re.compile(r"""[\w.@:/%?=&+~-]+""")
_KEYS = frozenset({"github", "patreon", "open_collective", "ko_fi", "tidelift",
                   "community_bridge", "liberapay", "issuehunt", "lfx_crowdfunding", "polar",
                   "buy_me_a_coffee", "thanks_dev", "custom", "otechie"})  # fmt: skip


def changes_funding(paths: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of a FUNDING.yml or a package's manifest among ``paths`` names an
    account, or an address of an owner, its old text did not."""
    names = {posixpath.basename(p) for p in paths}
    if names & _FUNDING_FILES:
        return any(_named(new) - _named(old) for old, new in edit_pairs(inputs)
                   if len(old) + len(new) <= _MAX_TEXT)  # fmt: skip
    if not names & _MANIFESTS:
        return False
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT:
            continue
        if not _FIELD.search(old + new) and not _PLATFORMS.search(old):
            continue
        known = {_owner(a) for a in _ADDRESS.findall(old)} | _accounts(old)
        if {_owner(a) for a in _ADDRESS.findall(new)} - known:
            return True
    return False


def _owner(address: str) -> str:
    """Whose an address is: its last path segment (``opencollective.com/loomjs``), or its
    host's name (``https://loomjs.dev``); a payment URI's address itself."""
    if "://" not in address:
        return address.lower()
    host, _, path = address.split("://", 1)[1].partition("/")
    segments = [p for p in path.split("?")[0].split("/") if p]
    if segments:
        return segments[-1].lower()
    labels = [label for label in host.lower().split(".") if label != "www"]
    return labels[0] if labels else host.lower()


def _accounts(text: str) -> set[str]:
    """The accounts and addresses a FUNDING.yml text names (its keys left out)."""
    words = {w.strip("'\"").lower().rstrip(":") for w in _ACCOUNT.findall(text)}
    return {w for w in words if w and w not in _KEYS}


def _named(text: str) -> set[str]:
    """Whose accounts a FUNDING.yml text names: its bare accounts, and its addresses'
    owners."""
    addresses = _ADDRESS.findall(text)
    bare = _accounts(_ADDRESS.sub(" ", text))
    return bare | {_owner(a) for a in addresses}
