"""A new private key whose only way out is the transcript.

``wg genkey``, ``openssl genrsa 2048``, ``age-keygen`` print the key they make on their
output; so does ``ssh-keygen -f /dev/stdout``. When nothing takes that output (no file,
no program that turns it into a public key), the model reads the new secret, and the
person would then have to trust a key the transcript holds. Such a piece is marked
`KEY_PRINTED` (`credential-print-new-key` denies it); so is a later reader that prints a
file the same command wrote the key into (``wg genkey > k; cat k``).

Where output goes is read from the pieces: no redirect and no pipe (the model reads it),
a pipe through programs that print what they are given (`CARRIERS`: ``| base64``), or a
``tee`` to the terminal's own files (``| tee /dev/stderr | wg pubkey``). A key written to
a file (``> wg/private.key``, ``-out build/dev.key``, ``tee wg/private.key``) or fed to
``wg pubkey`` is judged by today's rules on that file.
"""

from __future__ import annotations

from amplifier_hooks.guard.flow import CARRIERS, NOWHERE
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.commanders import SSH_KEYGEN
from amplifier_hooks.guard.table.options import read_options

__all__ = ["GENERATORS", "KEY_PRINTED", "mark_printed_keys", "new_key_out"]

KEY_PRINTED = "@new-key-printed"
"""A piece that prints a private key made in this command where the model reads it."""

TERMINAL = frozenset({"/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2",
                      "/proc/self/fd/1", "/proc/self/fd/2", "-"})  # fmt: skip
"""Files that are the transcript itself (``-``: a program's name for its output)."""

GENERATORS = frozenset({"wg", "openssl", "age-keygen", "rage-keygen", "ssh-keygen", "step"})
"""The programs `new_key_out` reads."""

_OPENSSL_MAKES = frozenset({"genrsa", "genpkey", "gendsa"})
_SSH_MODES = frozenset("lByeiIpcRFHkQrsTMGADYKOLu")
"""ssh-keygen's letters that choose a mode other than making a key (or that are rare
enough not to read: such a piece is left to the other rules)."""

_STDOUT = "(stdout)"
_OWN_OUTPUT = frozenset({"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "-"})
"""Names of the program's own output, which may still be piped on or redirected."""


def new_key_out(piece: Piece) -> str | None:
    """Where the private key ``piece`` makes goes: `_STDOUT` for its output, a file's
    word, or None when it makes no private key (or is not read well enough to say)."""
    program, args = piece.program, piece.args
    if piece.tool != "bash" or piece.dynamic or piece.opaque is not None:
        return None
    if program == "wg":
        return _STDOUT if args[:1] in (("genkey",), ("genpsk",)) and len(args) == 1 else None
    if program == "openssl" and args:
        return _openssl(args)
    if program in ("age-keygen", "rage-keygen"):
        return _age(args)
    if program == "ssh-keygen":
        return _ssh(args)
    if program == "step" and args[:2] == ("crypto", "keypair"):
        operands = [a for a in args[2:] if not a.startswith("-")]
        return operands[1] if len(operands) >= 2 else None
    return None


def _openssl(args: tuple[str, ...]) -> str | None:
    command, rest = args[0], args[1:]
    if command == "ecparam":
        if "-genkey" not in rest:
            return None  # (-noout leaves out the parameters, not the key)
    elif command == "req":
        if "-keyout" in rest:
            return _value(rest, "-keyout")
        return None  # it writes privkey.pem when no -keyout is given
    elif command not in _OPENSSL_MAKES:
        return None
    return _value(rest, "-out") if "-out" in rest else _STDOUT


def _age(args: tuple[str, ...]) -> str | None:
    if any(a in ("-y", "--help", "-h", "--version") for a in args):
        return None  # -y prints the recipient (public) of an identity it reads
    for index, word in enumerate(args):
        if word in ("-o", "--output"):
            return args[index + 1] if index + 1 < len(args) else None
        if word.startswith("--output="):
            return word.partition("=")[2]
        if word.startswith("-o") and len(word) > 2:
            return word[2:]
    return _STDOUT


def _ssh(args: tuple[str, ...]) -> str | None:
    read = read_options(SSH_KEYGEN, args)
    if read.doubt is not None or read.operands:
        return None
    letters = {g.opt.names[0][1:] for g in read.given}
    if not letters.isdisjoint(_SSH_MODES):
        return None
    files = [g.value for g in read.given if g.opt.names[0] == "-f" and g.value is not None]
    return files[-1] if files else None  # no -f: it asks where, then writes a file


def _value(args: tuple[str, ...], option: str) -> str | None:
    index = args.index(option)
    return args[index + 1] if index + 1 < len(args) else None


def _printed_by(index: int, pieces: tuple[Piece, ...]) -> bool:
    """Whether the output of ``pieces[index]`` reaches the model: into no file and no
    program, through carriers only, or into a ``tee`` of the terminal."""
    piece = pieces[index]
    if not piece.pipes_to:  # (a pipeline's redirects are on each of its pieces: not read)
        return all(w in TERMINAL for w in piece.writes)  # `> k` (a `2>` is not told apart)
    if piece.pipes_to[-1] == NOWHERE:
        return all(p in CARRIERS for p in piece.pipes_to[:-1])
    following = pieces[index + 1 : index + 1 + len(piece.pipes_to)]
    for name, after in zip(piece.pipes_to, following, strict=False):
        if after.program != name:
            return False
        if name == "tee" and any(a in TERMINAL - {"-"} for a in after.args):
            return True
        if name not in CARRIERS:
            return False
    return False


_READERS = frozenset({"cat", "head", "tail", "less", "more", "bat", "base64", "xxd", "od",
                      "hexdump", "strings", "tac", "nl"})  # fmt: skip


def mark_printed_keys(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each that prints a new private key marked `KEY_PRINTED`: the
    generator itself, or a later reader of the file it wrote the key into."""
    out: list[Piece] | None = None
    kept: set[str] = set()
    for index, piece in enumerate(pieces):
        if piece.program in _READERS and kept and not set(piece.args).isdisjoint(kept):
            printed = _printed_by(index, pieces)
        elif piece.program in GENERATORS:
            where = new_key_out(piece)
            if where is None:
                continue
            if where in (_STDOUT, *_OWN_OUTPUT):
                printed = _printed_by(index, pieces)
            elif where in TERMINAL:
                printed = True
            else:
                kept.add(where)
                printed = False
            kept.update(w for w in piece.writes if w not in TERMINAL and where == _STDOUT)
        else:
            continue
        if printed:
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, KEY_PRINTED))
    return pieces if out is None else tuple(out)
