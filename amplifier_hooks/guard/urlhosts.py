"""The host a URL (or a bare word) names, read as a resolver reads it: an address has
many spellings that reach the same host: one decimal number (``2852039166``), hex
(``0xa9fea9fe``), octal parts, IPv6 that carries IPv4 (``[::ffff:169.254.169.254]``),
a wildcard-DNS name that resolves to the address written in it
(``169.254.169.254.nip.io``). Each is read back to its address, and whether it is this
machine is told from it.
"""

from __future__ import annotations

import ipaddress
import re

__all__ = ["HOST_END", "SCHEME", "address_of", "authority_of", "host_of", "in_private_network",
           "is_local"]  # fmt: skip

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
HOST_END = re.compile(r"[/?#$`\"'\s]")
_LOOPBACK_NAMES = frozenset({"localhost", "host.docker.internal", "0.0.0.0"})
_WILDCARD_DNS = (".nip.io", ".sslip.io", ".xip.io", ".traefik.me", ".nip.direct", ".backname.io")
"""Names that resolve to the address written in them (``10.0.0.1.nip.io``,
``10-0-0-1.sslip.io``)."""


def host_of(authority: str) -> str:
    """The host of ``host:port`` or ``[v6]:port``, lower case, without a trailing dot."""
    if authority.startswith("["):
        return authority[1:].partition("]")[0].lower()
    return (
        authority.rpartition(":")[0].lower().rstrip(".")
        if authority.count(":") == 1
        else (authority.lower().rstrip("."))
    )


def address_of(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address ``host`` names, in any spelling a resolver reads, or None for a name."""
    if host.endswith(_WILDCARD_DNS):  # (one look for the names most hosts are)
        suffix = next(s for s in _WILDCARD_DNS if host.endswith(s))
        return _embedded(host[: -len(suffix)])
    if ":" in host:
        try:
            six = ipaddress.IPv6Address(host.partition("%")[0])
        except ValueError:
            return None
        return _unwrapped(six)
    return _ipv4(host)


def _unwrapped(six: ipaddress.IPv6Address) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The IPv4 address an IPv6 one carries (mapped, compatible, NAT64), or itself."""
    if six.ipv4_mapped is not None:
        return six.ipv4_mapped
    number = int(six)
    if (number >> 32 == 0 and number > 0xFFFF) or number >> 32 == 0x64FF9B << 64:
        return ipaddress.IPv4Address(number & 0xFFFFFFFF)
    return six


def _embedded(labels: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a wildcard-DNS name writes: its last four labels, or its last label
    with dashes, or eight hex digits."""
    parts = labels.split(".")
    if len(parts) >= 4:
        found = _ipv4(".".join(parts[-4:]))
        if found is not None:
            return found
    last = parts[-1].rpartition("-")[2]
    if re.fullmatch(r"[0-9a-f]{8}", last):
        return ipaddress.IPv4Address(int(last, 16))
    dashed = parts[-1].split("-")
    return _ipv4(".".join(dashed[-4:])) if len(dashed) >= 4 else None


def _ipv4(host: str) -> ipaddress.IPv4Address | None:
    """``host`` read as ``inet_aton`` reads it: one to four parts, each decimal, ``0x``
    hex or ``0`` octal, the last filling the bytes left."""
    if not host[:1].isdigit():  # every spelling starts with a digit (`0x`, `0` octal too)
        return None  # (a name: most hosts, read four times for each URL)
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers: list[int] = []
    for part in parts:
        try:
            if part[:2].lower() == "0x":
                numbers.append(int(part[2:] or "0", 16))
            elif len(part) > 1 and part.startswith("0"):
                numbers.append(int(part, 8))
            else:
                numbers.append(int(part, 10) if part.isdigit() else -1)
        except ValueError:
            return None
    if any(n < 0 for n in numbers):
        return None
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 1 << (8 * (4 - len(head))):
        return None
    value = 0
    for n in head:
        value = value << 8 | n
    return ipaddress.IPv4Address(value << (8 * (4 - len(head))) | last)


def authority_of(url: str) -> str:
    """What comes between ``url``'s scheme and its path."""
    found = SCHEME.match(url)
    rest = url[found.end() :] if found else url
    end = HOST_END.search(rest)
    return rest[: end.start()] if end else rest


def is_local(url: str) -> bool:
    """Whether ``url``'s host is this machine (a loopback name or address)."""
    host = host_of(authority_of(url).rpartition("@")[2])
    if host in _LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    address = address_of(host)
    return address is not None and address.is_loopback


_PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7")
)
"""The private networks (and the carrier's shared range, a tailnet's)."""
_PRIVATE_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home.arpa", ".test",
                     ".invalid", ".localdomain", ".svc", ".cluster.local", ".corp",
                     ".intranet")  # fmt: skip
"""Names that resolve only inside a private network (or nowhere)."""


def in_private_network(host: str) -> bool:
    """Whether ``host`` (a name or an address, in any spelling) is this machine's or a
    private network's: a lab a scanner may probe, a pipeline's own collector."""
    if host == "localhost" or host.rstrip(".").endswith(_PRIVATE_SUFFIXES):
        return True
    address = address_of(host)
    if address is None:
        return False
    if address.is_loopback or address.is_link_local or address.is_unspecified:
        return True
    return any(address in network for network in _PRIVATE_NETWORKS)
