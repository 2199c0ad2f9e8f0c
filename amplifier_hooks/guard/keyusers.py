"""Secrets by name that a program is handed to use, never to show: the arguments of a
piece that name a secret (`secrets.secret_kind`) and that the secrets-by-name rules leave
alone.

- ``keytool -list`` / ``-printcert`` / ``-printcertreq`` / ``-printcrl`` read a keystore
  (or a signed file) and print its certificates, which are public: an alias, a date, a
  fingerprint, a PEM certificate with ``-rfc``. ``-genkeypair`` / ``-genkey`` /
  ``-genseckey`` make a new key inside the store and ``-certreq`` prints a request for
  its certificate: neither shows a private key. None of them prints a private key. Every
  other command (``-importkeystore`` into a PKCS#12 file ``openssl`` opens,
  ``-exportcert``, ``-storepasswd``...) stays judged as a read, and a command line with
  two commands too.
- fastlane's key options (``--json_key FILE``, ``json_key:FILE`` for ``fastlane run``,
  ``--api_key_path``, ``key_filepath:``) hand a Play service account or an App Store
  Connect API key to fastlane, which signs its requests to Google's or Apple's API with it
  and prints none of it. What the call does with the store is judged by its own rules.
- Ansible's vault password files (``--vault-password-file F``, ``--vault-id prod@F``) open
  the vault for the run; none of it is printed.
- BIND's clients (``nsupdate -k F``, ``dig -k F``, ``rndc -k F``) sign their requests
  with the TSIG key file they are handed and print none of it.
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
_KEYTOOL_SHOWS_NO_KEY = frozenset({"-list", "-printcert", "-printcertreq", "-printcrl",
                                   "-genkeypair", "-genkey", "-genseckey", "-certreq"})  # fmt: skip

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
    if piece.program in _ANSIBLES:
        return _vault_files(piece.args)
    if piece.program in _TSIG_CLIENTS:
        return _option_values(piece.args, "-k")
    if piece.program == "wg" and piece.args == ("pubkey",):
        return frozenset(piece.reads)  # the private key on stdin: only its public key out
    if piece.program == "openssl":
        found = openssl_files(piece.args)
        return frozenset() if found is None else found.unshown
    return frozenset()


_TSIG_CLIENTS = frozenset({"nsupdate", "dig", "rndc"})


def _option_values(args: tuple[str, ...], option: str) -> frozenset[str]:
    """The words ``option`` is given (``-k F``, ``-kF``), and those words as they stand."""
    found: set[str] = set()
    for index, arg in enumerate(args):
        if arg == option and index + 1 < len(args):
            found.add(args[index + 1])
        elif arg.startswith(option) and len(arg) > len(option) and not arg.startswith("--"):
            found.update((arg, arg[len(option) :]))
    return frozenset(found)


def _keytool(args: tuple[str, ...]) -> frozenset[str]:
    commands = {a.lower() for a in args if a.lower() in _KEYTOOL_COMMANDS}
    if len(commands) != 1 or not commands <= _KEYTOOL_SHOWS_NO_KEY:
        return frozenset()
    return frozenset(args)


_ANSIBLES = frozenset({"ansible", "ansible-playbook", "ansible-vault", "ansible-pull",
                       "ansible-console", "ansible-inventory", "molecule"})  # fmt: skip
_VAULT_OPTIONS = ("--vault-password-file", "--vault-pass-file", "--vault-id",
                  "--new-vault-password-file", "--new-vault-id")  # fmt: skip


def _vault_files(args: tuple[str, ...]) -> frozenset[str]:
    """The vault password files Ansible is handed (``--vault-password-file F``,
    ``--vault-id prod@F``): it opens the vault with them and prints none of them."""
    found: set[str] = set()
    for index, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if name not in _VAULT_OPTIONS:
            continue
        if not equals:
            value = args[index + 1] if index + 1 < len(args) else ""
        found.update((arg, value, value.rpartition("@")[2]))
    return frozenset(found - {""})


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
