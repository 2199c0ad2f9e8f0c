"""An edit that adds someone from outside the organisation to who gets in or who is told.

A list of admins, members or alert recipients names the team's addresses
(``jlee@acme.com``); one more at another domain (``ppc.freelance@gmail.com``) and the next
access sync makes that person an admin of every account, the next alert mails them the
figures. An edit whose old text names e-mail addresses, in a list of who may come in or who
is sent something, and whose new text adds an address at a domain the old text does not
name, is marked `OUTSIDER_ADDED` (asked). Example domains (``example.com``, ``.test``) are
no one's; tests, docs and the lists of a project's authors are not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import change_pairs
from amplifier_hooks.guard.testpaths import test_code

__all__ = ["OUTSIDER_ADDED", "adds_outsider"]

OUTSIDER_ADDED = "@outsider-added"
_ADDRESS = re.compile(r"\b[\w.+-]+@(?P<domain>(?:[a-z0-9-]+\.)+[a-z]{2,})\b", re.I)
_EXAMPLE = re.compile(r"(?:^|\.)(?:example\.(?:com|org|net)|test|example|invalid|localhost)$")
"""Domains reserved for examples and tests (RFC 2606): no one's mailbox."""
_WHO = re.compile(
    r"\b(?:admins?|administrators?|owners?|members?|recipients?|notify|notifications?|alerts?"
    r"|access|grants?|roles?|invit\w*|shar\w*|editors?|viewers?|collaborators?|subscribers?"
    r"|mail_?to|cc|bcc|allow\w*|authori[sz]ed\w*|approvers?|reviewers?|managers?|users?)\b",
    re.I,
)
"""The words of a list of who may come in or who is told."""
_NOT_READ = re.compile(
    r"\.(?:md|mdx|rst|txt|adoc|html?)$|(?:^|/)(?:docs?/|AUTHORS|CONTRIBUTORS|MAINTAINERS"
    r"|CODEOWNERS|\.mailmap|CHANGELOG|package\.json$|pyproject\.toml$|Cargo\.toml$)",
    re.I,
)
"""Docs, and the files that credit a project's authors (their addresses are any domain's)."""
_MAX_TEXT = 64 * 1024


def adds_outsider(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of ``paths`` adds an address at a domain its old list of people did
    not name (module doc)."""
    if paths and all(_NOT_READ.search(p) or test_code(p) for p in paths):
        return False
    for old, new in change_pairs(inputs):
        if not old or len(old) + len(new) > _MAX_TEXT or "@" not in new:
            continue
        known = {m["domain"].lower() for m in _ADDRESS.finditer(old)}
        if not known or not (_WHO.search(old) or _WHO.search(new) or _who_path(paths)):
            continue
        if any(_outside(m["domain"].lower(), known) for m in _ADDRESS.finditer(new)):
            return True
    return False


def _outside(domain: str, known: set[str]) -> bool:
    return domain not in known and _EXAMPLE.search(domain) is None


def _who_path(paths: tuple[str, ...]) -> bool:
    return any(_WHO.search(p.rpartition("/")[2].replace("_", " ")) for p in paths)
