"""openssl's files for the commands that handle certificates: which it writes, which it
reads, and which keys it uses without printing them.

``openssl x509 -in cert.pem -noout -enddate`` reads a certificate and writes nothing;
``openssl req -x509 -newkey rsa:2048 -keyout dev.key -out dev.crt`` writes a new key and
certificate and reads no key; ``openssl pkey -pubout -in server.key`` reads a private key
and prints only its public half. Each command's options are listed with what their value
is (a file read, a file written, a key used, or a word); an option not listed, or a
command not listed, gives None, and every word stays a path as before (read, and maybe
written or shown: the secrets-by-name rules still judge it).

A key is *used, not shown* when the command cannot print it: ``x509``, ``verify``,
``req`` and ``crl`` never print a private key (``-key``, ``-signkey``, ``-CAkey`` sign
with it); ``pkey``, ``rsa`` and ``ec`` only with ``-pubout`` (or ``-noout``), and never
with ``-text``, which prints the private numbers.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["OpensslFiles", "openssl_files"]

_READ = frozenset({"in", "CAfile", "CA", "untrusted", "trusted", "CRLfile", "extfile",
                   "config", "crl", "inkey"})  # fmt: skip
_WRITE = frozenset({"out", "keyout"})
_KEYS = frozenset({"key", "signkey", "CAkey"})
"""Options whose value is a key the command signs with (never printed)."""
_WORDS = frozenset({"days", "subj", "newkey", "set_serial", "extensions", "reqexts",
                    "addext", "inform", "outform", "keyform", "CAform", "CAkeyform",
                    "nameopt", "certopt", "purpose", "verify_hostname", "attime",
                    "checkend", "ext", "sigopt", "pkeyopt", "verify_depth", "name",
                    "passin", "passout", "CAserial", "setalias", "ciphers"})  # fmt: skip
"""Options whose value is a word, not a file (a password's *source* may name a file:
``-passin file:p``, which the command reads but does not print)."""
_SWITCHES = frozenset({"noout", "text", "nodes", "noenc", "x509", "new", "pubout", "pubin",
                       "enddate", "startdate", "dates", "subject", "issuer", "serial",
                       "fingerprint", "sha1", "sha256", "sha384", "sha512", "md5", "pubkey",
                       "modulus", "hash", "subject_hash", "issuer_hash", "ocspid", "email",
                       "check", "verify", "batch", "quiet", "utf8", "multivalue-rdn",
                       "CAcreateserial", "req", "x509_strict", "partial_chain", "show_chain",
                       "no-CAfile", "no-CApath", "ocsp_uri", "alias", "trustout",
                       "clrtrust", "noprompt", "verbose", "help"})  # fmt: skip
_NEVER_SHOWN = frozenset({"x509", "verify", "req", "crl"})
"""Commands that print no private key, whatever they are given."""
_KEY_TOOLS = frozenset({"pkey", "rsa", "ec"})
_OPERANDS_READ = frozenset({"verify"})
"""Commands whose operands are files they read (certificates to verify)."""


class OpensslFiles(NamedTuple):
    """What an openssl command writes and reads, and the paths it reads without showing."""

    written: tuple[str, ...]
    read: tuple[str, ...]
    unshown: frozenset[str]


def openssl_files(args: tuple[str, ...]) -> OpensslFiles | None:
    """The files ``openssl args`` writes and reads (None: a command or an option the
    guard does not read)."""
    if not args or args[0] not in _NEVER_SHOWN | _KEY_TOOLS:
        return None
    command = args[0]
    written: list[str] = []
    read: list[str] = []
    keys: list[str] = []
    switches: set[str] = set()
    index = 1
    while index < len(args):
        word = args[index]
        index += 1
        if not word.startswith("-") or word == "-":
            if command not in _OPERANDS_READ:
                return None
            read.append(word)
            continue
        name = word.lstrip("-")
        if name in _SWITCHES:
            switches.add(name)
            continue
        if name not in _READ | _WRITE | _KEYS | _WORDS or index >= len(args):
            return None
        value = args[index]
        index += 1
        if name in _WRITE:
            written.append(value)
        elif name in _READ:
            read.append(value)
        elif name in _KEYS:
            keys.append(value)
    shown = command in _KEY_TOOLS and ("text" in switches or not switches & {"pubout", "noout"})
    unshown = frozenset() if shown else frozenset((*read, *keys))
    return OpensslFiles(tuple(written), (*read, *keys), unshown | frozenset(written))
