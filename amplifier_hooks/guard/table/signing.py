"""App signing tools in the modes that only look: ``keytool -list`` / ``-printcert``
(a keystore's or a signed file's certificates), ``security cms -D -i PROFILE`` (a
provisioning profile decoded to its property list, on standard output) and
``apksigner verify`` (an APK's signatures checked), ``codesign -dv`` and ``--verify``, a
package's signature (``pkgutil --check-signature``) and Gatekeeper's assessment
(``spctl --assess``).

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


_CODESIGN_LOOKS = frozenset({"-d", "--display", "-v", "--verify", "-dv", "-dvv", "-dvvv", "-vv",
                             "-vvv", "--deep", "--strict", "--verbose", "-R", "-r-"})  # fmt: skip
"""codesign's words that display or verify a signature; ``-s`` (sign), ``-f`` (replace)
and ``--remove-signature`` write the code and are not listed."""


def _codesign(args: tuple[str, ...]) -> Reading:
    """``codesign -dv [--entitlements -] APP``, ``codesign --verify --deep APP``: what
    signed it, checked; the entitlements printed on standard output (``-``) only."""
    rest = list(args)
    if "--entitlements" in rest:
        at = rest.index("--entitlements")
        if rest[at + 1 : at + 2] != ["-"]:
            return doubtful("codesign --entitlements writes a file unless it is -")
        del rest[at : at + 2]
    flags = [a for a in rest if a[:1] == "-"]
    if not flags or any(f not in _CODESIGN_LOOKS for f in flags) or not {
        "-d", "--display", "-v", "--verify", "-dv", "-dvv", "-dvvv", "-vv", "-vvv"
    } & set(flags):  # fmt: skip
        return doubtful("codesign signs unless it displays or verifies")
    return Reading(acts_of(Does.READ, [a for a in rest if a[:1] != "-"]))


_PKGUTIL_LOOKS = frozenset({"--check-signature", "--pkgs", "--pkg-info", "--files",
                            "--file-info", "--payload-files", "--packages"})  # fmt: skip
"""pkgutil's queries; ``--forget``, ``--expand`` and ``--flatten`` change the receipts or
write a folder."""


def _pkgutil(args: tuple[str, ...]) -> Reading:
    if len(args) > 2 or not args or args[0] not in _PKGUTIL_LOOKS:
        return doubtful("pkgutil changes receipts or writes unless it queries")
    return Reading(acts_of(Does.READ, args[1:]))


def _spctl(args: tuple[str, ...]) -> Reading:
    """``spctl --assess [-v] [--type T] FILE``, ``spctl --status``: Gatekeeper asked, not
    changed (``--master-disable``, ``--add`` are not looks)."""
    if args in (("--status",), ("--global-status",)):
        return _LOOKED
    if len(args) < 2 or args[0] not in ("--assess", "-a") or args[-1][:1] == "-":
        return doubtful("spctl changes Gatekeeper unless it assesses one file or prints")
    found = _words("spctl", args[1:-1], frozenset({"-v", "-vv", "--verbose", "--raw"}),
                   {"--type": None, "-t": None})  # fmt: skip
    if found.doubt is not None:
        return found
    return Reading((*found.acts, *acts_of(Does.READ, args[-1:])))


_LOOKED = Reading()


SIGNING: dict[str, Entry] = {"keytool": _keytool, "security": _security,
                             "apksigner": _apksigner, "codesign": _codesign,
                             "pkgutil": _pkgutil, "spctl": _spctl}  # fmt: skip
"""The table's entries of this family."""
SIGNING_LOOKERS = frozenset(SIGNING)
"""Programs of this family that, read in full (no doubt), write no file at all."""
