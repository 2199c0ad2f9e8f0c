"""A cluster secret, or a SOPS file decrypted, printed straight into ``jq``'s or ``yq``'s
``keys``: only the secret's key names reach the screen (``kubectl get secret db -o
jsonpath='{.data}' | jq 'keys'``, ``sops -d secrets/dev.enc.yaml | yq 'keys'``).

Which keys a secret holds (``DATABASE_URL``, ``tls.crt``) is what a person checks before
wiring a workload to it; the values never leave the pipe. Only that exact shape counts:
the next piece is ``jq`` given output-format options and one filter that keeps the keys
(``keys``, ``keys_unsorted``, ``.data | keys``, each with ``[]`` or not); any other option
(``--arg``, a file) or filter prints what jq is given, and the piece is left unmarked for
`credential-print-cluster` to judge. So is a cluster call whose output is not the
secret's object as the cluster holds it (a template, ``-o go-template='{"{{.data.x}}":1}'``,
makes a value a key), whose output goes to a file (``> s.json | jq keys``: jq reads
nothing, the file holds the secret), or whose log prints the response (``-v=9``). A
decryption prints the whole file unless it is told to pick a value (``--extract``) or to
write a file (``--output``, ``-i``): those are left unmarked too.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["KEYS_ONLY", "PROGRAMS", "mark_keys_only"]

KEYS_ONLY = "@secret-keys-only"
"""A piece whose output goes only into ``jq`` or ``yq`` keeping the key names of what it is
given."""
PROGRAMS = frozenset({"kubectl", "oc", "sops"})
"""The programs whose printed secrets are read here."""
_CLUSTERS = frozenset({"kubectl", "oc"})
_KEY_READERS = frozenset({"jq", "yq"})
_DECRYPTS = frozenset({"-d", "--decrypt", "decrypt"})
_PICKS = ("--extract", "--output", "-i", "--in-place", "--exec", "exec-env", "exec-file")
"""SOPS's options and commands that print one value, write a file or run a program."""

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
    """``pieces`` with each cluster call or SOPS decryption piped straight into a keys-only
    ``jq`` or ``yq`` marked."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces[:-1]):
        if piece.program not in PROGRAMS or piece.pipes_to[:1] not in (("jq",), ("yq",)):
            continue
        after = pieces[index + 1]
        whole = _whole_object(piece.args) if piece.program in _CLUSTERS else _decrypted(piece.args)
        if not _NOWHERE.issuperset(piece.writes) or not whole:
            continue
        if after.program in _KEY_READERS and not after.dynamic and _keys_only(after.args):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, KEYS_ONLY))
    return pieces if out is None else tuple(out)


def _keys_only(args: tuple[str, ...]) -> bool:
    filters = [a for a in args if a not in _JQ_FORMAT]
    return len(filters) == 1 and _KEYS_FILTER.fullmatch(filters[0]) is not None


def _decrypted(args: tuple[str, ...]) -> bool:
    """Whether SOPS's ``args`` decrypt a whole file to its output (no value picked, no file
    written, no program run)."""
    if _DECRYPTS.isdisjoint(args):
        return False
    return not any(a.startswith(_PICKS) for a in args)


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
