"""Whether a request reaches a cloud's metadata service (``169.254.169.254``,
``metadata.google.internal``, ECS's ``169.254.170.2``), however its address is spelled
(`urlhosts`), and whether it asks for what the service hands out as secrets: the service
hands any program on the machine the machine's cloud credentials.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import unquote

from amplifier_hooks.guard.urlhosts import HOST_END, SCHEME, address_of, host_of

__all__ = ["metadata_host"]

_METADATA_NAMES = frozenset(
    {"metadata.google.internal", "metadata.goog", "metadata", "instance-data",
     "instance-data.ec2.internal", "metadata.platformequinix.com", "metadata.packet.net"}
)  # fmt: skip
_BARE_NAMES = frozenset(n for n in _METADATA_NAMES if "." in n)
"""A word with no scheme is a host only when it could not be anything else (``-H
Metadata:true`` is a header)."""
_LINK_LOCAL = ipaddress.ip_network("169.254.0.0/16")
"""Where AWS, Azure, GCP, Oracle, DigitalOcean and others serve metadata (and ECS and EKS
their task and pod credentials)."""
_METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("100.100.100.200", "fd00:ec2::254", "fd00:ec2::23", "fd20:ce::254")
)  # fmt: skip
"""Alibaba's metadata service, and the IPv6 addresses of AWS's and GCP's."""
_ALWAYS_SECRET = frozenset(ipaddress.ip_address(a) for a in ("169.254.170.2", "169.254.170.23"))
"""ECS's and EKS's credential endpoints: everything they serve is a credential."""
_SECRET_PATH = re.compile(
    r"security-credentials|/identity|/token|service-accounts/[^?#]*/(?:token|identity)"
    r"|user-data|/credentials|/api/token|/instance/attributes",
    re.I,
)


def metadata_host(word: str) -> bool | None:
    """Whether ``word`` (a URL, or a bare host and path) reaches a cloud metadata service:
    None when not; True when it asks for what the service hands out as secrets (or its
    path cannot be known), False for the rest of what it serves."""
    url = SCHEME.match(word)
    rest = word[url.end() :] if url else word
    end = HOST_END.search(rest)
    authority, path = (rest[: end.start()], rest[end.start() :]) if end else (rest, "")
    host = host_of(authority.rpartition("@")[2] if url else authority)
    if not host:
        return None
    address = address_of(host)
    if address is None:
        names = _METADATA_NAMES if url else _BARE_NAMES
        if host not in names:
            return None
    elif address not in _METADATA_ADDRESSES and address not in _LINK_LOCAL:
        return None
    if address in _ALWAYS_SECRET or (path[:1] in ("$", "`") or "$" in path):
        return True
    return _SECRET_PATH.search(unquote(path)) is not None
