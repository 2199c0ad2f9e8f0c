"""Build tools' listings that hold secrets among their everyday output: ``make -p`` (its
database lists every environment variable with its value) and Gradle's ``properties``
task (every project property, the passwords and signing keys of
``~/.gradle/gradle.properties`` among them), ``docker compose config`` (the compose file
with every variable's value from ``.env`` put in) and ``helm get values`` (a release's
values, its chart's passwords among them).

The listing alone is a build's debugging aid (``make -pn | grep -E '^CFLAGS '``), judged
by its own rules; piped into a search for a secret's word (``make -pn | grep -i token``,
``./gradlew properties | grep -i sign``) it prints exactly the secrets, so the piece is
marked `BUILD_SECRETS`.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.environment import secret_word
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table import patterned
from amplifier_hooks.guard.table.text import SEARCHES

__all__ = ["BUILD_SECRETS", "PRINTERS", "mark_build_secrets"]

BUILD_SECRETS = "@build-secrets"
PRINTERS = frozenset({"make", "gmake", "gradle", "gradlew", "docker", "docker-compose", "podman",
                      "podman-compose", "helm"})  # fmt: skip
_SIGNING = re.compile(r"sign", re.I)
"""Gradle's signing properties (``signing.password``, ``signing.secretKeyRingFile``)."""
_MAKE_VALUED = frozenset("fCIjlowWE")
"""make's option letters whose value may follow in the same word (``-fMakefile.p``)."""


def mark_build_secrets(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Every listing of `PRINTERS` whose output flows into a search for a secret, marked."""
    out = list(pieces)
    for index, piece in enumerate(pieces):
        if piece.program in PRINTERS and _lists(piece) and _searched(pieces, index):
            out[index] = piece._replace(wrappers=(*piece.wrappers, BUILD_SECRETS))
    return tuple(out)


def _lists(piece: Piece) -> bool:
    """``make -p``/``--print-data-base`` (in a cluster: ``-pn``), ``gradle properties``,
    ``docker compose config`` (the file with every variable's value put in), ``helm get
    values`` (a release's values, its passwords among them)."""
    if piece.program in ("gradle", "gradlew"):
        return any(a == "properties" or a.endswith(":properties") for a in piece.args)
    if piece.program in ("docker", "podman"):
        return "compose" in piece.args and "config" in piece.args
    if piece.program in ("docker-compose", "podman-compose"):
        return "config" in piece.args
    if piece.program == "helm":
        return "get" in piece.args and not {"values", "manifest", "all"}.isdisjoint(piece.args)
    for arg in piece.args:
        if arg == "--":
            break
        if arg == "--print-data-base":
            return True
        if arg.startswith("-") and not arg.startswith("--") and _make_letter_p(arg[1:]):
            return True
    return False


def _make_letter_p(letters: str) -> bool:
    """Whether a cluster of make's short options holds ``p`` before any option's value."""
    for letter in letters:
        if letter == "p":
            return True
        if letter in _MAKE_VALUED:
            return False
    return False


def _searched(pieces: tuple[Piece, ...], index: int) -> bool:
    """Whether the listing flows first into a search for a secret's word."""
    first = pieces[index].pipes_to[:1]
    if not first or first[0] not in SEARCHES:
        return False
    sink = next((p for p in pieces[index + 1 :] if p.program == first[0]), None)
    if sink is None or sink.dynamic:
        return False
    patterns, read = patterned(sink.program or "grep", sink.args)
    if read.has("invert") or read.doubt is not None:
        return False
    return any(secret_word(p) or _SIGNING.search(p) for p in patterns)
