"""Secrets by name that a program is handed to use, never to show: the arguments of a
piece that name a secret (`secrets.secret_kind`) and that the secrets-by-name rules leave
alone.

- ``keytool -list`` / ``-printcert`` / ``-printcertreq`` / ``-printcrl`` read a keystore
  (or a signed file) and print its certificates, which are public: an alias, a date, a
  fingerprint, a PEM certificate with ``-rfc``. None of them prints a private key. Every
  other command (``-importkeystore`` into a PKCS#12 file ``openssl`` opens,
  ``-exportcert``, ``-genkeypair``, ``-storepasswd``...) stays judged as a read, and a
  command line with two commands too.
- fastlane's key options (``--json_key FILE``, ``json_key:FILE`` for ``fastlane run``,
  ``--api_key_path``, ``key_filepath:``) hand a Play service account or an App Store
  Connect API key to fastlane, which signs its requests to Google's or Apple's API with it
  and prints none of it. What the call does with the store is judged by its own rules.
- openssl's certificate commands (`table.opensslfiles`): ``x509``, ``verify``, ``req``
  sign with a key or read a certificate and print no private key; ``pkey -pubout`` prints
  only the public half; so does ``wg pubkey`` of the key it reads on stdin.
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.opensslfiles import openssl_files

__all__ = ["unshown_secrets"]

_KEYTOOL_COMMANDS = frozenset(
    {"-certreq", "-changealias", "-delete", "-exportcert", "-export", "-genkeypair", "-genkey",
     "-genseckey", "-gencert", "-importcert", "-import", "-importpass", "-importkeystore",
     "-keypasswd", "-keyclone", "-selfcert", "-list", "-printcert", "-printcertreq",
     "-printcrl", "-storepasswd", "-showinfo", "-identitydb", "-version", "-help"}
)  # fmt: skip
"""keytool's commands (JDK 8 to 21, with the old names still read)."""
_KEYTOOL_SHOWS_CERTIFICATES = frozenset({"-list", "-printcert", "-printcertreq", "-printcrl"})

_FASTLANE_KEY_OPTIONS = frozenset({"json_key", "api_key_path", "key_filepath"})
"""The options (``--NAME FILE``, ``--NAME=FILE``, ``NAME:FILE``) fastlane reads a key from."""


def unshown_secrets(piece: Piece) -> frozenset[str]:
    """The arguments of ``piece`` that its program uses without showing what they name."""
    if piece.dynamic:
        return frozenset()
    if piece.program == "keytool":
        return _keytool(piece.args)
    if piece.program == "fastlane":
        return _fastlane(piece.args)
    if piece.program == "wg" and piece.args == ("pubkey",):
        return frozenset(piece.reads)  # the private key on stdin: only its public key out
    if piece.program == "openssl":
        found = openssl_files(piece.args)
        return frozenset() if found is None else found.unshown
    return frozenset()


def _keytool(args: tuple[str, ...]) -> frozenset[str]:
    commands = {a.lower() for a in args if a.lower() in _KEYTOOL_COMMANDS}
    if len(commands) != 1 or not commands <= _KEYTOOL_SHOWS_CERTIFICATES:
        return frozenset()
    return frozenset(args)


def _fastlane(args: tuple[str, ...]) -> frozenset[str]:
    found: set[str] = set()
    for index, arg in enumerate(args):
        name, equals, _ = arg.removeprefix("--").partition("=")
        if arg.startswith("--") and name in _FASTLANE_KEY_OPTIONS:
            if equals:
                found.add(arg)
            elif index + 1 < len(args):
                found.add(args[index + 1])
            continue
        name, colon, value = arg.partition(":")
        if colon and value and name in _FASTLANE_KEY_OPTIONS:
            found.add(arg)
    return frozenset(found)
