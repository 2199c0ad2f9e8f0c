"""Files sent to the network whole: ``nc HOST PORT < FILE`` (ncat, netcat, socat, telnet
likewise), and an upload whose file is computed (``xargs -I{} curl -F f=@{} URL``, ``curl
-T "$f" URL`` in a loop, ``--data-binary @$(...)``).

A literal file sent to a host is judged by the pack's rules on its path (a key or a
``.env`` is denied or asked wherever it goes). Here the guard cannot see the file (it is
only known when the shell runs), or a raw socket carries it to a host no API stands for;
either way a person decides (`FILE_TO_SOCKET`, `COMPUTED_UPLOAD`). When the same command
names a secret by its name (``mdfind 'kMDItemFSName == "id_*"' | xargs -I{} curl -F
f=@{} ..``), the computed files are taken as that secret (`COMPUTED_SECRET_UPLOAD`).
A connection to this machine (``nc localhost 6379 < cmds.txt``) is not marked.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.secrets import secret_kind

__all__ = [
    "COMPUTED_SECRET_UPLOAD", "COMPUTED_UPLOAD", "FILE_TO_SOCKET", "PROGRAMS", "mark_sent_files",
]  # fmt: skip

FILE_TO_SOCKET = "@file-to-socket"
"""The mark of a raw network client (``nc``) given a file on its input."""
COMPUTED_UPLOAD = "@computed-upload"
"""The mark of an upload (``curl -F f=@X``, ``-T X``) whose file X is computed."""
COMPUTED_SECRET_UPLOAD = "@computed-secret-upload"
"""`COMPUTED_UPLOAD` in a command that names a secret by its name."""

_SOCKETS = frozenset({"nc", "ncat", "netcat", "socat", "telnet"})
_UPLOADERS = frozenset({"curl", "wget", "http", "https", "xh", "xhs"})
PROGRAMS = _SOCKETS | _UPLOADERS
"""Every program `mark_sent_files` reads (`marks` skips it for a command naming none)."""
_LOCAL = re.compile(r"(?:^|[:=,])(?:localhost|127\.[0-9.]+|\[?::1\]?|0\.0\.0\.0)(?:$|[:,])|^unix",
                    re.IGNORECASE)  # fmt: skip
_FILE_VALUED = frozenset({"-T", "--upload-file", "--post-file", "--body-file"})
"""Options whose value is a file sent whole."""
_WORD = re.compile(r"[^\s'\"=]+")


def mark_sent_files(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each file sent whole to the network marked (the same tuple when none
    is; screened by program first)."""
    if not any([p.program in _SOCKETS or p.program in _UPLOADERS for p in pieces]):
        return pieces
    out = list(pieces)
    for index, piece in enumerate(pieces):
        mark = _mark(piece, pieces)
        if mark is not None:
            out[index] = piece._replace(wrappers=(*piece.wrappers, mark))
    return tuple(out)


def _mark(piece: Piece, pieces: tuple[Piece, ...]) -> str | None:
    if piece.program in _SOCKETS:
        remote = not any([_LOCAL.search(a) for a in piece.args])
        return FILE_TO_SOCKET if piece.reads and remote else None
    if piece.program not in _UPLOADERS or not _computed_file(piece):
        return None
    named = any([_names_secret(p) for p in pieces if p is not piece])
    return COMPUTED_SECRET_UPLOAD if named else COMPUTED_UPLOAD


def _computed_file(piece: Piece) -> bool:
    """Whether ``piece`` uploads a file known only at run time (``@{}`` under ``xargs -I``,
    ``@$f``, ``-T "$f"``)."""
    pasted = "xargs" in piece.wrappers
    args = piece.args
    for index, arg in enumerate(args):
        if "://" in arg:  # a URL's user@host is no file
            continue
        name, equals, value = arg.partition("=")
        if equals and name in _FILE_VALUED and _runtime(value, pasted):
            return True
        valued = arg in _FILE_VALUED or (arg[:1] == "-" and arg[1:2] != "-" and arg[-1:] == "T")
        if valued and index + 1 < len(args) and _runtime(args[index + 1], pasted):
            return True
        for sign in ("@", "<"):  # `-F f=@FILE`, `--data-binary @FILE`, httpie's `f@FILE`
            if sign in arg and _runtime(arg.split(sign, 1)[1], pasted):
                return True
    return False


def _runtime(word: str, pasted: bool) -> bool:
    return "$" in word or "`" in word or (pasted and "{}" in word)


def _names_secret(piece: Piece) -> bool:
    """Whether a word of ``piece`` (or a word inside one: a search expression) names a
    secret by its name (``id_*``, ``*.pem``, ``.env``)."""
    return any([secret_kind(w) is not None for a in piece.args for w in _WORD.findall(a)])
