"""An edit of a domain's DNS records that moves its mail or its zone to other hosts.

An MX record's host replaced (``aspmx.l.google.com.`` made ``mx1.mailrelay-eu.net.``) sends
every mail to the domain to that host from the next sync of the zone (octoDNS, a BIND zone
file, Terraform's records), password resets and invoices among them; an NS record's host
replaced hands the whole zone to another provider. Such an edit is marked `DNS_MOVED`
(asked): a person confirms the new host is the domain's own. A record added beside the old
ones, or a preference changed, moves nothing."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["DNS_MOVED", "moves_dns"]

DNS_MOVED = "@dns-moved"
_HOSTS = re.compile(
    r"\bexchange\s*:\s*[\"']?(?P<a>[\w.-]+\.[a-z]{2,}\.?)"
    r"|\bIN\s+(?:MX\s+\d+|NS)\s+(?P<b>[\w.-]+\.[a-z]{2,}\.?)"
    r"|^\s*(?:-\s*)?[\"']?\d+\s+(?P<c>[\w.-]+\.[a-z]{2,}\.?)[\"']?\s*,?\s*$"
    r"|[\[,]\s*\"\d+\s+(?P<d>[\w.-]+\.[a-z]{2,}\.?)\"",
    re.I | re.M,
)
"""An MX's or an NS's host, as octoDNS (``exchange:``), a BIND zone (``IN MX 10 host.``)
and a provider's record list (``"10 mx.host."``) write it."""
_RECORD = re.compile(r"\b(?:MX|NS)\b")
_MAX_TEXT = 64 * 1024


def moves_dns(inputs: Mapping[str, Any]) -> bool:
    """Whether an edit replaces an MX's or an NS's host with another (module doc)."""
    for old, new in edit_pairs(inputs):
        if len(old) + len(new) > _MAX_TEXT or not (_RECORD.search(old) and _RECORD.search(new)):
            continue
        before, after = _hosts(old), _hosts(new)
        if before and after and before - after and after - before:
            return True
    return False


def _hosts(text: str) -> set[str]:
    return {
        next(host for host in found.groups() if host).lower().rstrip(".")
        for found in _HOSTS.finditer(text)
    }
