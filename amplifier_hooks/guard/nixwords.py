"""Nix's commands that only look at the store: which write no path they are given.

The guard's default for a program it does not read is that every path it is given is
written, which reads ``nix store diff-closures ~/.local/state/nix/profiles/home-manager-41-link
...-42-link`` (a listing of what changed between two generations) as a change of both.
These commands print what is in the store: ``nix store diff-closures|ls|cat``,
``nix path-info``, ``nix why-depends``, ``nix derivation show``, ``nix log``, and
``nix-store -q`` (``--query``, ``-qR``), ``--dump``, ``-l``/``--read-log``. Nothing here
grants: the piece stays as doubtful as any other nix call, its paths only read.
"""

from __future__ import annotations

__all__ = ["nix_writes_nothing"]

_LOOKS = frozenset({("store", "diff-closures"), ("store", "ls"), ("store", "cat"),
                    ("path-info",), ("why-depends",), ("derivation", "show"),
                    ("show-derivation",), ("log",)})  # fmt: skip
"""``nix`` commands (their words) that print what is in the store and change nothing."""
_VALUED = frozenset({"--extra-experimental-features", "--experimental-features",
                     "--log-format"})  # fmt: skip
"""nix's global options that take the next word (``--store``, ``--option`` are left out:
another store, or a setting, is not read here)."""
_NIX_STORE_LOOKS = frozenset({"--query", "--dump", "-l", "--read-log"})
_NIX_STORE_CHANGES = frozenset({"--add-root", "-r", "--realise", "--delete", "--gc", "--repair",
                                "--indirect"})  # fmt: skip
"""nix-store options that make a root, build, delete or repair (never with a look)."""


def nix_writes_nothing(program: str | None, args: tuple[str, ...]) -> bool:
    """Whether ``nix ARGS``/``nix-store ARGS`` only prints what is in the store."""
    if program == "nix-store":
        first = args[0] if args else ""
        looks = first in _NIX_STORE_LOOKS or (first[:2] == "-q" and first[2:3] != "-")
        return looks and _NIX_STORE_CHANGES.isdisjoint(args)
    if program != "nix":
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
    return tuple(words[:1]) in _LOOKS or tuple(words) in _LOOKS
