"""Scanners and attack tools aimed at a host: ``nmap -sV 203.0.113.10``, ``sqlmap -u URL
--dump``, ``nuclei -u URL``, msfconsole's ``set RHOSTS ADDR``.

Probing a machine that is not the person's is often forbidden by its owner (and the law),
and these tools can break it or take its data (``sqlmap --dump``). A target that is not
this machine or a private lab network's is marked `SCAN_EXTERNAL`, asked by the pack's
``scan-external-host``. Lab targets are loopback, the private IPv4 blocks (10/8,
172.16/12, 192.168/16), link-local and IPv6 unique-local addresses, and names no public
resolver answers (``localhost``, ``*.local``, ``*.internal``, ``*.test``, ...). The
documentation blocks (192.0.2/24, 198.51.100/24, 203.0.113/24) are no lab's: Python
calls them private, a scan of them stands for one of the internet. A target the guard
cannot read (a list file, ``-iL hosts.txt``; a variable; a one-label name) gets no mark:
no opinion, as before.
"""

from __future__ import annotations

import ipaddress
import re

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.urlhosts import (
    SCHEME,
    authority_of,
    host_of,
    in_private_network,
)

__all__ = ["PROGRAMS", "SCAN_EXTERNAL", "external_targets", "mark_scans"]

SCAN_EXTERNAL = "@scan-external"
"""The mark of a scanner's or attack tool's call aimed at a host outside the lab."""

PROGRAMS = frozenset({
    "nmap", "masscan", "zmap", "rustscan", "naabu", "hping3",  # ports and hosts
    "sqlmap", "nuclei", "nikto", "wpscan", "commix", "dalfox", "xsstrike", "whatweb",
    "gobuster", "ffuf", "feroxbuster", "dirb", "dirsearch", "wfuzz",  # web apps
    "msfconsole",  # exploits
    "svmap", "svwar", "svcrack", "sipvicious_svmap", "sipvicious_svwar", "sipvicious_svcrack",
    "inviteflood", "sipp",  # SIP: scans, extension and password guessing, call floods
})  # fmt: skip
"""The tools read: each sends probes or attacks to the hosts it is given."""

_IPV4ISH = re.compile(r"^\d{1,3}(?:\.[\d*,-]+){3}(?:/\d{1,2})?$")
"""An address, a CIDR block or an nmap range (``10.0.0-255.1-254``, ``192.168.1.*``)."""
_NAME = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}\.?$")
_FILES = frozenset({
    "txt", "xml", "json", "yaml", "yml", "nse", "gnmap", "nmap", "csv", "tsv", "html", "htm",
    "log", "lst", "out", "py", "rb", "sh", "pl", "js", "php", "asp", "aspx", "jsp", "conf",
    "cfg", "ini", "md", "rc", "req", "pcap", "db", "sql", "zip", "gz", "tar",
})  # fmt: skip
"""A name ending in one of these is a file (``-oX out.xml``, ``-l urls.txt``), not a host."""
_NOT_TARGETS = frozenset({"--exclude", "--dns-servers", "-S", "-D", "-e", "--proxies",
                          "--proxy", "-proxy", "--referer", "--resolvers", "-r"})  # fmt: skip
"""Options whose value is a host or address that is not scanned: hosts left out, the
resolver, a spoofed source or decoys, a proxy, a referer."""
_RHOSTS = re.compile(r"\b(?:setg?\s+)?RHOSTS?(?:\s+|=)([^\s;'\"]+)", re.IGNORECASE)
"""msfconsole's target, set in its ``-x`` commands (``set RHOSTS 198.51.100.23``)."""


def mark_scans(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each scanner aimed at a host outside the lab marked `SCAN_EXTERNAL`;
    the same tuple when none is."""
    return mark_each(pieces, PROGRAMS, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    return (SCAN_EXTERNAL,) if external_targets(piece.program or "", piece.args) else ()


def external_targets(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The hosts ``program args`` aims at that are outside the lab (empty: none read)."""
    if program == "msfconsole":
        words = [m.group(1) for arg in args for m in _RHOSTS.finditer(arg)]
    else:
        words = _target_words(args)
    return tuple(host for word in words if (host := _host(word)) and not in_private_network(host))


def _target_words(args: tuple[str, ...]) -> list[str]:
    """Every word that may name a target (`--url=URL`: its value), but the values of
    options that name another host (`_NOT_TARGETS`)."""
    words: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name, equals, value = arg.partition("=")
        if arg.startswith("-") and name in _NOT_TARGETS:
            skip = not equals
            continue
        words.append(value if arg.startswith("-") else arg)
    return words


def _host(word: str) -> str | None:
    """The host ``word`` names (None: it names none the guard can read)."""
    if SCHEME.match(word):
        return host_of(authority_of(word).rpartition("@")[2]) or None
    if not word or "$" in word or "`" in word:
        return None
    if _IPV4ISH.match(word):  # a block or range is read by its first address
        return ".".join(
            re.split(r"[*,-]", part)[0] or "0" for part in word.split("/")[0].split(".")
        )
    if ":" in word and not word.startswith("["):
        try:  # an IPv6 address or block
            return str(ipaddress.ip_network(word, strict=False).network_address)
        except ValueError:
            pass
    host = host_of(word.lower())
    if _NAME.match(host) and host.rstrip(".").rsplit(".", 1)[-1] not in _FILES:
        return host
    return "localhost" if host == "localhost" else None
