"""mkcert's files: the certificate and key it makes, the request it reads.

mkcert issues a certificate from the person's local CA. It reads its command line with
Go's flag package: one dash or two, ``-flag=value`` or ``-flag value``, and the flags end
at the first word that is not one (or at ``--``); the words after are host names, e-mail
addresses or IPs, never files. ``-cert-file``, ``-key-file`` and ``-p12-file`` name the
files it creates: a new key is written there, not read, so no credential is read (a key
written over elsewhere is still a change the rules judge). ``-csr`` names a request it
reads. ``-install`` and ``-uninstall`` change the trust stores: the pack asks
(`trusted-root-tool`).

``age-keygen -y [-o OUT] [IN]`` reads an identity (IN, else its input) and writes its
recipient, the public key, to OUT (else its output): IN is read, never written.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["AGE_KEYGENS", "Made", "age_recipient_files", "mkcert_files"]

AGE_KEYGENS = frozenset({"age-keygen", "rage-keygen"})
"""age's key tool (and rage's, which reads the same command line)."""
_SWITCHES = frozenset({"install", "uninstall", "CAROOT", "client", "ecdsa", "pkcs12",
                       "help", "h", "version"})  # fmt: skip
"""mkcert's flags that take no value (Go's booleans: ``-ecdsa=true`` is one too)."""
_WRITES = frozenset({"cert-file", "key-file", "p12-file"})
_READS = frozenset({"csr"})


class Made(NamedTuple):
    """The files a call creates and the files it reads."""

    written: tuple[str, ...]
    read: tuple[str, ...]


def mkcert_files(args: tuple[str, ...]) -> Made | None:
    """The files ``mkcert args`` writes and reads (None: a flag it does not have, or one
    with no value, so the guard cannot say and every word counts as a path)."""
    written: list[str] = []
    read: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--" or not word.startswith("-") or word == "-":
            break  # the flags end; the rest are names
        if word.startswith("---"):
            return None  # Go's flag package refuses it
        name, equals, value = word.lstrip("-").partition("=")
        if name in _SWITCHES:
            continue
        if name not in _WRITES and name not in _READS:
            return None
        if not equals:
            if index >= len(args):
                return None
            value = args[index]
            index += 1
        (written if name in _WRITES else read).append(value)
    return Made(tuple(written), tuple(read))


def age_recipient_files(args: tuple[str, ...]) -> Made | None:
    """The files ``age-keygen -y args`` writes and reads (None: not ``-y``, or a flag or
    word the guard does not read there)."""
    written: list[str] = []
    read: list[str] = []
    recipient = False
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if read or not word.startswith("-") or word == "-":
            read.append(word)  # the identity file (Go's flags end at the first operand)
            continue
        name, equals, value = word.lstrip("-").partition("=")
        if name == "y" and not equals:
            recipient = True
            continue
        if name not in ("o", "output"):
            return None
        if not equals:
            if index >= len(args):
                return None
            value = args[index]
            index += 1
        written.append(value)
    return Made(tuple(written), tuple(read)) if recipient and len(read) <= 1 else None
