"""App signing tools in the modes that only look: ``keytool -list`` / ``-printcert``
(a keystore's or a signed file's certificates), ``security cms -D -i PROFILE`` (a
provisioning profile decoded to its property list, on standard output) and
``apksigner verify`` (an APK's signatures checked).

Their options are one-dash words (keytool) or long options (apksigner), read word by
word. Every other mode (a key generated, a keystore converted or its password changed, a
profile decoded into a file with ``-o``, an APK signed), an option that loads code
(keytool's ``-providerpath``/``-providerclass``, ``-J`` for the JVM), one that connects
to a server (``-sslserver``) or a word the entry does not list is doubtful: nothing is
granted and the rules on the program by name still speak. What a keystore holds is
judged by the secrets-by-name rules (`keyusers`: ``-list`` shows no private key).
"""

from __future__ import annotations

from collections.abc import Mapping

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry

__all__ = ["SIGNING", "SIGNING_LOOKERS"]

_PASSWORDS = ("-storepass", "-keypass", "-srcstorepass", "-srckeypass")


def _valued(word: str, valued: Mapping[str, Does | None]) -> tuple[bool, Does | None]:
    """Whether ``word`` takes a value, and what is done to it: ``-storepass:env VAR`` and
    ``-storepass:file F`` are keytool's spellings of a password's source."""
    if word in valued:
        return True, valued[word]
    name, colon, source = word.partition(":")
    if colon and name in _PASSWORDS and name in valued:
        return (
            (True, Does.READ)
            if source == "file"
            else (True, None)
            if source == "env"
            else (False, None)
        )
    return False, None


def _words(program: str, args: tuple[str, ...], flags: frozenset[str],
           valued: Mapping[str, Does | None]) -> Reading:  # fmt: skip
    acts: list[Act] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word in flags:
            continue
        takes, does = _valued(word, valued)
        if not takes:
            return doubtful(f"{program} {word} is a word the guard does not read")
        if index >= len(args):
            return doubtful(f"{program} {word} needs a value")
        if does is not None:
            acts.append(Act(does, args[index]))
        index += 1
    return Reading(tuple(acts))


_KEYSTORE: dict[str, Does | None] = {
    "-keystore": Does.READ, "-storepass": None, "-keypass": None, "-storetype": None,
    "-alias": None,
}  # fmt: skip


def _keytool(args: tuple[str, ...]) -> Reading:
    """``keytool -list [-v|-rfc] [-keystore F] [-storepass ...] [-alias A]``, ``keytool
    -printcert [-v|-rfc] [-file F | -jarfile F]``: print certificates, which are public."""
    if not args:
        return doubtful("keytool needs a command")
    command, rest = args[0], args[1:]
    if command not in ("-list", "-printcert") and "-list" in args:
        command, rest = "-list", tuple(a for a in args if a != "-list")
    elif command not in ("-list", "-printcert") and "-printcert" in args:
        command, rest = "-printcert", tuple(a for a in args if a != "-printcert")
    shown = frozenset({"-v", "-rfc"})
    if command == "-list":
        return _words("keytool", rest, shown | {"-protected", "-cacerts"}, _KEYSTORE)
    if command == "-printcert":
        return _words("keytool", rest, shown, {"-file": Does.READ, "-jarfile": Does.READ})
    return doubtful("keytool changes a keystore or writes a file unless it lists (-list)")


def _security(args: tuple[str, ...]) -> Reading:
    """``security cms -D -i FILE``: decodes a signed message (a ``.mobileprovision``) and
    prints its content; ``-o FILE`` would write it, and every other ``security`` command
    is the pack's to judge."""
    if args[:2] not in (("cms", "-D"), ("cms", "-Di")):
        return doubtful("security only looks here when it decodes (cms -D)")
    rest = args[2:] if args[1] == "-D" else ("-i", *args[2:])
    return _words("security cms", rest, frozenset({"-n", "-q"}),
                  {"-i": Does.READ, "-h": None, "-u": None})  # fmt: skip


_APKSIGNER_FLAGS = frozenset(
    {"-v", "--verbose", "--print-certs", "--print-certs-pem", "-Werr"}
)  # fmt: skip
_APKSIGNER_VALUED: dict[str, Does | None] = {
    "--min-sdk-version": None,
    "--max-sdk-version": None,
    "--in": Does.READ,
}


def _apksigner(args: tuple[str, ...]) -> Reading:
    """``apksigner verify [--verbose] [--print-certs] FILE``: checks an APK's signatures;
    ``sign`` (which writes it) and ``rotate`` are not looks."""
    if args[:1] != ("verify",) or len(args) < 2 or args[-1][:1] == "-":
        return doubtful("apksigner signs unless it verifies one file")
    found = _words("apksigner", args[1:-1], _APKSIGNER_FLAGS, _APKSIGNER_VALUED)
    if found.doubt is not None:
        return found
    return Reading((*found.acts, *acts_of(Does.READ, args[-1:])))


SIGNING: dict[str, Entry] = {"keytool": _keytool, "security": _security,
                             "apksigner": _apksigner}  # fmt: skip
"""The table's entries of this family."""
SIGNING_LOOKERS = frozenset(SIGNING)
"""Programs of this family that, read in full (no doubt), write no file at all."""
