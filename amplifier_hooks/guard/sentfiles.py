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

A raw client fed by a pipe (``kafka-console-consumer ... | nc 203.0.113.9 9000``; not by
``echo`` of written words) sends whatever the command before it prints to the host it
names; when that host is outside this machine and its private networks (an instrument at
192.168.10.21 answering ``*IDN?`` is the lab's own), a person decides (`OUTPUT_TO_SOCKET`).
A host the guard cannot find (a listener, a Unix socket, a name computed at run time)
leaves the piece unmarked.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.secrets import secret_kind
from amplifier_hooks.guard.urlhosts import in_private_network

__all__ = [
    "COMPUTED_SECRET_UPLOAD", "COMPUTED_UPLOAD", "FILE_TO_SOCKET", "OUTPUT_TO_SOCKET", "PROGRAMS",
    "mark_sent_files",
]  # fmt: skip

FILE_TO_SOCKET = "@file-to-socket"
"""The mark of a raw network client (``nc``) given a file on its input."""
OUTPUT_TO_SOCKET = "@output-to-socket"
"""The mark of a raw network client fed by a pipe, connecting to a host outside."""
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
_NOT_FILES = frozenset({"-u", "--user", "-U", "--proxy-user", "-A", "--user-agent", "-e",
                        "--referer", "--oauth2-bearer", "--login-options"})  # fmt: skip
"""curl's options whose value is a login, an agent or a referrer, never a file's name."""


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
        if piece.reads and remote:
            return FILE_TO_SOCKET
        fed = any([piece.program in p.pipes_to and not _literal(p) for p in pieces
                   if p is not piece])  # fmt: skip
        return OUTPUT_TO_SOCKET if fed and _outside(piece) else None
    if piece.program not in _UPLOADERS or not _computed_file(piece):
        return None
    named = any([_names_secret(p) for p in pieces if p is not piece])
    return COMPUTED_SECRET_UPLOAD if named else COMPUTED_UPLOAD


def _literal(piece: Piece) -> bool:
    """``echo``/``printf`` of words written out (``echo ping | nc host 9000``): what is sent
    is on the command line, for the person to read."""
    return piece.program in ("echo", "printf") and not piece.dynamic and not piece.reads


def _computed_file(piece: Piece) -> bool:
    """Whether ``piece`` uploads a file known only at run time (``@{}`` under ``xargs -I``,
    ``@$f``, ``-T "$f"``)."""
    pasted = "xargs" in piece.wrappers
    args = piece.args
    for index, arg in enumerate(args):
        if "://" in arg:  # a URL's user@host is no file
            continue
        if (index and args[index - 1] in _NOT_FILES) or arg.partition("=")[0] in _NOT_FILES:
            continue  # `-u "me@acme.com/token:$TOKEN"`: a login's user@host is no file
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


_LISTENING = frozenset({"-l", "--listen", "-U", "--unixsock", "-z"})
"""A listener, a Unix socket, a port scan: nothing is sent to a host named here."""
_VALUED = frozenset(
    {"-p", "-s", "-w", "-q", "-i", "-x", "-X", "-e", "-c", "-o", "-O", "-W", "-T", "-V", "-P",
     "-I", "-g", "-G", "--source-port", "--source", "--wait", "--proxy", "--proxy-type",
     "--exec", "--sh-exec", "--output"}
)  # fmt: skip
_SOCAT_HOST = re.compile(
    r"(?i)^(?:tcp[46]?|udp[46]?|openssl|ssl|tcp-connect|udp-connect"
    r"|tcp[46]?-connect|udp[46]?-connect|udp-sendto)[:](?P<host>[^:,]+)"
)


def _outside(piece: Piece) -> bool:
    """Whether the raw client ``piece`` connects to a host outside this machine and its
    private networks (False when no host can be read)."""
    args = piece.args
    if not _LISTENING.isdisjoint(args) or any(["$" in a or "`" in a for a in args]):
        return False
    if piece.program == "socat":
        hosts = [m.group("host") for a in args if (m := _SOCAT_HOST.match(a))]
    else:
        hosts, skip = [], False
        for arg in args:
            if skip:
                skip = False
            elif arg.startswith("-"):
                skip = arg in _VALUED
                if arg[1:2] != "-" and not {"l", "z", "U"}.isdisjoint(arg[1:]):
                    return False  # `-lvnp 4444`, `-vz`: combined short flags
            elif not arg.isdigit():
                hosts.append(arg)
        hosts = hosts[:1]
    return bool(hosts) and not any([in_private_network(h.strip("[]")) for h in hosts])
