"""Commands of tools with subcommands that only print: they write no path they name.

The guard's default for a program it does not read is that every path it is given is
written, which reads ``nix store diff-closures ~/.local/state/nix/profiles/home-
manager-41-link ...-42-link`` (a listing of what changed between two generations) as a
change of both. These print what is in the Nix store: ``nix store diff-closures|ls|cat``,
``nix path-info``, ``nix why-depends``, ``nix derivation show``, ``nix log``, and ``nix-
store -q`` (``--query``, ``-qR``), ``--dump``, ``-l``/``--read-log``; Lustre's ``lfs
quota|df|getstripe|find`` print quotas, space and layouts; the Globus CLI's ``ls``,
``whoami``, ``task list|show`` print a collection's files or a transfer (its paths are on
another endpoint); ``dbxcli ls|search|du`` lists a Dropbox (its paths are Dropbox's);
``signtool verify`` and ``gpg --verify`` check a signature; ROS 2's and Gazebo's topic,
node, parameter and service commands name topics (``/odom``), not files. Some inspectors
have no mode that writes at all: binutils' ``readelf``, ``nm``, ``objdump`` and ``size``
(and LLVM's), ``findmnt``, an initramfs's listers (``lsinitramfs``, ``lsinitrd`` but its
``--unpack``), ``sbverify``, ``grub-script-check``, and ``pgrep``/``pidof`` (their words
are patterns). Nothing here grants: the piece stays as doubtful as before, its paths only
read."""

from __future__ import annotations

__all__ = ["LOOKING_TOOLS", "writes_nothing"]

_LOOKS: dict[str, frozenset[tuple[str, ...]]] = {
    "nix": frozenset({("store", "diff-closures"), ("store", "ls"), ("store", "cat"),
                      ("path-info",), ("why-depends",), ("derivation", "show"),
                      ("show-derivation",), ("log",)}),
    "lfs": frozenset({("quota",), ("df",), ("getstripe",), ("find",)}),
    "globus": frozenset({("ls",), ("whoami",), ("task", "list"), ("task", "show")}),
    "dbxcli": frozenset({("ls",), ("search",), ("account",), ("du",), ("version",)}),
    "signtool": frozenset({("verify",)}),
    # ROS 2 and Gazebo name topics, nodes and services with a leading slash (`/odom`): no
    # file; what a command sends the robot (`ros2 topic pub`) is the pack's to ask
    "ros2": frozenset({("topic",), ("node",), ("param",), ("service",), ("action",),
                       ("lifecycle",), ("interface",), ("pkg",), ("doctor",), ("wtf",),
                       ("control",), ("bag", "info"), ("bag", "play")}),
    "gz": frozenset({("topic",), ("service",), ("model",)}),
    "signtool.exe": frozenset({("verify",)}),
}  # fmt: skip
"""Each tool's commands (their first words) that print and change nothing."""
_NEVER_WRITE = frozenset(
    {"readelf", "nm", "objdump", "size", "llvm-readelf", "llvm-readobj", "llvm-nm",
     "llvm-objdump", "llvm-size", "eu-readelf", "findmnt", "lsinitramfs", "lsinitrd",
     "sbverify", "grub-script-check", "grub2-script-check", "pgrep", "pidof"}
)  # fmt: skip
"""Programs with no option that writes a file (``lsinitrd --unpack`` aside)."""
LOOKING_TOOLS = frozenset({*_LOOKS, *_NEVER_WRITE, "nix-store", "gpg", "gpg2"})
"""The programs `writes_nothing` reads (`plainwords` reads them apart)."""
_VALUED = frozenset({"--extra-experimental-features", "--experimental-features",
                     "--log-format"})  # fmt: skip
"""nix's global options that take the next word (``--store``, ``--option`` are left out:
another store, or a setting, is not read here)."""
_NIX_STORE_LOOKS = frozenset({"--query", "--dump", "-l", "--read-log"})
_NIX_STORE_CHANGES = frozenset({"--add-root", "-r", "--realise", "--delete", "--gc", "--repair",
                                "--indirect"})  # fmt: skip
"""nix-store options that make a root, build, delete or repair (never with a look)."""


_GPG_WRITES = frozenset({"-o", "--output", "--import", "--recv-keys", "--yes", "--edit-key",
                         "--delete-keys", "--delete-secret-keys", "--decrypt", "-d"})  # fmt: skip
"""gpg options that write a file or the keyring, which no ``--verify`` alone does."""


def writes_nothing(program: str | None, args: tuple[str, ...]) -> bool:
    """Whether ``PROGRAM ARGS`` is one of `_LOOKS` (or ``nix-store`` that queries), or a
    program of `_NEVER_WRITE`."""
    if program in _NEVER_WRITE:
        return program != "lsinitrd" or not any(a.startswith("--unpack") for a in args)
    if program in ("gpg", "gpg2"):  # `gpg --verify SIG FILE`: a signature checked
        return "--verify" in args and _GPG_WRITES.isdisjoint(a.partition("=")[0] for a in args)
    if program == "nix-store":
        first = args[0] if args else ""
        queries = first in _NIX_STORE_LOOKS or (first[:2] == "-q" and first[2:3] != "-")
        return queries and _NIX_STORE_CHANGES.isdisjoint(args)
    looks = _LOOKS.get(program or "")
    if looks is None:
        return False
    words: list[str] = []
    index = 0
    while index < len(args) and len(words) < 2:
        arg = args[index]
        if arg in ("--store", "--option") or arg.startswith("--store="):
            return False
        if arg.startswith("-"):
            index += 2 if arg in _VALUED else 1
            continue
        words.append(arg)
        index += 1
    return tuple(words[:1]) in looks or tuple(words) in looks
