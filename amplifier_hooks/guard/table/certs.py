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
recipient, the public key, to OUT (else its output): IN is read, never written. Without
``-y`` it makes a new identity and writes it to OUT (else its output): nothing is read.
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


def _go_flags(args: tuple[str, ...], switches: frozenset[str], valued: frozenset[str],
              ) -> tuple[list[tuple[str, str | None]], tuple[str, ...]] | None:  # fmt: skip
    """``args`` read as Go's flag package reads them: the flags given (a switch's value
    None unless spelled ``-name=value``) and the words after them (None: a flag not in
    ``switches`` or ``valued``, or one missing its value, so the guard cannot say what the
    words are)."""
    given: list[tuple[str, str | None]] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            return given, args[index + 1 :]
        if not word.startswith("-") or word == "-":
            break  # the flags end at the first word that is not one
        if word.startswith("---"):
            return None  # Go's flag package refuses it
        index += 1
        name, equals, value = word.lstrip("-").partition("=")
        if name in switches:
            given.append((name, value if equals else None))
        elif name not in valued:
            return None
        elif equals:
            given.append((name, value))
        elif index < len(args):
            given.append((name, args[index]))
            index += 1
        else:
            return None
    return given, args[index:]


def mkcert_files(args: tuple[str, ...]) -> Made | None:
    """The files ``mkcert args`` writes and reads (None: a flag it does not have, or one
    with no value, so the guard cannot say and every word counts as a path)."""
    read = _go_flags(args, _SWITCHES, _WRITES | _READS)
    if read is None:
        return None
    given, _names = read  # the rest are host names, never files
    return Made(tuple(v for n, v in given if n in _WRITES and v is not None),
                tuple(v for n, v in given if n in _READS and v is not None))  # fmt: skip


def age_recipient_files(args: tuple[str, ...]) -> Made | None:
    """The files ``age-keygen [-y] args`` writes and reads (None: a flag or word the guard
    does not read there)."""
    read = _go_flags(args, frozenset({"y", "pq"}), frozenset({"o", "output"}))
    if read is None:
        return None
    given, identity = read  # the identity file (else its input)
    written = tuple(v for n, v in given if v is not None and n in ("o", "output"))
    if ("y", None) not in given:  # a new identity: written, nothing read
        return Made(written, ()) if not identity else None
    if len(identity) > 1:
        return None
    return Made(written, identity)
