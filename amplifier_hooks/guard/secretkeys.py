"""A cluster secret printed straight into ``jq``'s ``keys``: only the secret's key names
reach the screen (``kubectl get secret db -o jsonpath='{.data}' | jq 'keys'``).

Which keys a secret holds (``DATABASE_URL``, ``tls.crt``) is what a person checks before
wiring a workload to it; the values never leave the pipe. Only that exact shape counts:
the next piece is ``jq`` given output-format options and one filter that keeps the keys
(``keys``, ``keys_unsorted``, ``.data | keys``, each with ``[]`` or not); any other option
(``--arg``, a file) or filter prints what jq is given, and the piece is left unmarked for
`credential-print-cluster` to judge. So is a cluster call whose output is not the
secret's object as the cluster holds it (a template, ``-o go-template='{"{{.data.x}}":1}'``,
makes a value a key), whose output goes to a file (``> s.json | jq keys``: jq reads
nothing, the file holds the secret), or whose log prints the response (``-v=9``).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["KEYS_ONLY", "PROGRAMS", "mark_keys_only"]

KEYS_ONLY = "@secret-keys-only"
"""A piece whose output goes only into ``jq`` keeping the key names of what it is given."""
PROGRAMS = frozenset({"kubectl", "oc"})
"""The programs whose printed secrets are read here."""

_KEYS_FILTER = re.compile(r"\s*(?:\.data\s*\|\s*)?keys(?:_unsorted)?(?:\[\])?\s*")
"""jq filters that print only the names of an object's keys."""
_JQ_FORMAT = frozenset({"-r", "--raw-output", "-c", "--compact-output", "-M",
                        "--monochrome-output", "-C", "--color-output", "-j",
                        "--join-output"})  # fmt: skip
"""jq's options that change only how its output is written."""
_WHOLE_OBJECT = frozenset({"json", "jsonpath={.data}"})
"""``-o`` formats that print the secret's object itself (or its ``data``): its keys are
the key names it holds."""
_NOWHERE = frozenset({"/dev/null"})


def mark_keys_only(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each cluster call piped straight into a keys-only ``jq`` marked."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces[:-1]):
        if piece.program not in PROGRAMS or piece.pipes_to[:1] != ("jq",):
            continue
        after = pieces[index + 1]
        if not _NOWHERE.issuperset(piece.writes) or not _whole_object(piece.args):
            continue
        if after.program == "jq" and not after.dynamic and _keys_only(after.args):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, KEYS_ONLY))
    return pieces if out is None else tuple(out)


def _keys_only(args: tuple[str, ...]) -> bool:
    filters = [a for a in args if a not in _JQ_FORMAT]
    return len(filters) == 1 and _KEYS_FILTER.fullmatch(filters[0]) is not None


def _whole_object(args: tuple[str, ...]) -> bool:
    """Whether a cluster call's output formats (``-o json``, ``-ojson``, ``--output=json``)
    are all `_WHOLE_OBJECT`, with no template and no log level (``-v=6`` and up print the
    response, the secret's values with it, beside the output)."""
    formats: list[str] = []
    for index, arg in enumerate(args):
        if arg in ("-o", "--output"):
            formats.append(args[index + 1] if index + 1 < len(args) else "")
        elif arg.startswith("--output="):
            formats.append(arg[len("--output=") :])
        elif arg.startswith("-o") and not arg.startswith("--"):
            formats.append(arg[2:].removeprefix("="))
        elif arg.startswith(("--template", "-v", "--v")):
            return False
    return bool(formats) and _WHOLE_OBJECT.issuperset(formats)
