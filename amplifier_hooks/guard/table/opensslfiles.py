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
with ``-text``, which prints the private numbers. ``genpkey`` and ``genrsa`` make a new
key and write it to ``-out`` (without it, to their output: `keyprints` judges that); the
new file is not read (`facts`), an old one they would write over is.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["OpensslFiles", "openssl_files", "prints_certificate"]

_READ = frozenset({"in", "CAfile", "CA", "untrusted", "trusted", "CRLfile", "extfile",
                   "config", "crl", "inkey", "paramfile"})  # fmt: skip
_WRITE = frozenset({"out", "keyout"})
_KEYS = frozenset({"key", "signkey", "CAkey"})
"""Options whose value is a key the command signs with (never printed)."""
_WORDS = frozenset({"days", "subj", "newkey", "set_serial", "extensions", "reqexts",
                    "addext", "inform", "outform", "keyform", "CAform", "CAkeyform",
                    "nameopt", "certopt", "purpose", "verify_hostname", "attime",
                    "checkend", "ext", "sigopt", "pkeyopt", "verify_depth", "name",
                    "passin", "passout", "CAserial", "setalias", "ciphers", "algorithm", "pass",
                    "primes"})  # fmt: skip
"""Options whose value is a word, not a file (a password's *source* may name a file:
``-passin file:p``, which the command reads but does not print)."""
_SWITCHES = frozenset({"noout", "text", "nodes", "noenc", "x509", "new", "pubout", "pubin",
                       "enddate", "startdate", "dates", "subject", "issuer", "serial",
                       "fingerprint", "sha1", "sha256", "sha384", "sha512", "md5", "pubkey",
                       "modulus", "hash", "subject_hash", "issuer_hash", "ocspid", "email",
                       "check", "verify", "batch", "quiet", "utf8", "multivalue-rdn",
                       "CAcreateserial", "req", "x509_strict", "partial_chain", "show_chain",
                       "no-CAfile", "no-CApath", "ocsp_uri", "alias", "trustout",
                       "clrtrust", "noprompt", "verbose", "help", "genparam", "aes128", "aes192",
                       "aes256", "des3", "F4", "f4", "3", "nextupdate", "lastupdate",
                       "crlnumber"})  # fmt: skip
_NEVER_SHOWN = frozenset({"x509", "verify", "req", "crl"})
"""Commands that print no private key, whatever they are given."""
_KEY_TOOLS = frozenset({"pkey", "rsa", "ec"})
_OPERANDS_READ = frozenset({"verify"})
"""Commands whose operands are files they read (certificates to verify)."""
_MAKERS = frozenset({"genpkey", "genrsa"})
"""Commands that make a new private key (shown unless written to ``-out``)."""


_PRINTERS = frozenset({"x509", "crl"})
_PRINTS = frozenset({"noout", "text", "subject", "issuer", "serial", "dates", "startdate",
                     "enddate", "fingerprint", "sha1", "sha256", "sha384", "sha512", "md5",
                     "pubkey", "modulus", "hash", "subject_hash", "issuer_hash", "ocspid",
                     "ocsp_uri", "email", "nextupdate", "lastupdate", "crlnumber"})  # fmt: skip
"""``x509``'s and ``crl``'s switches that print a part of the certificate or list."""
_PRINT_VALUES = frozenset({"in", "inform", "nameopt", "certopt", "ext", "checkend"})
"""Their options whose value is the file read, or a word that says what to print."""


class OpensslFiles(NamedTuple):
    """What an openssl command writes and reads, and the paths it reads without showing."""

    written: tuple[str, ...]
    read: tuple[str, ...]
    unshown: frozenset[str]


def openssl_files(args: tuple[str, ...]) -> OpensslFiles | None:
    """The files ``openssl args`` writes and reads (None: a command or an option the
    guard does not read)."""
    if not args or args[0] not in _NEVER_SHOWN | _KEY_TOOLS | _MAKERS:
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
        if command == "genrsa" and word.isdigit() and index == len(args):
            continue  # its last operand: the key's size in bits
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
    if command in _MAKERS:  # its new key: not read when new in the workspace (`facts`)
        return OpensslFiles(tuple(written), tuple(read), frozenset())
    shown = command in _KEY_TOOLS and ("text" in switches or not switches & {"pubout", "noout"})
    unshown = frozenset() if shown else frozenset((*read, *keys))
    return OpensslFiles(tuple(written), (*read, *keys), unshown | frozenset(written))


def prints_certificate(args: tuple[str, ...]) -> bool:
    """Whether ``openssl args`` is ``x509`` or ``crl`` printing (a part of) the certificate
    or revocation list it reads, and nothing else: a public document. Given a private key
    instead, openssl prints an error and none of it; any other option (``-out``,
    ``-signkey``, ``-req``) is not this."""
    if not args or args[0] not in _PRINTERS:
        return False
    index = 1
    while index < len(args):
        name = args[index].removeprefix("-")
        index += 1
        if name in _PRINTS and args[index - 1][:1] == "-":
            continue
        if name not in _PRINT_VALUES or args[index - 1][:1] != "-" or index >= len(args):
            return False
        index += 1
    return True
