"""A decrypter whose output is thrown away: ``sops -d secrets/prod.enc.yaml > /dev/null
&& echo ok`` checks that the file decrypts (the key is there, the file is whole) and
prints nothing of it; the model reads only the exit status and what goes to stderr
(an error, gpg's signature lines), never the plain text.

A piece's ``writes`` do not say which descriptor was redirected (``2>/dev/null`` leaves
the plain text on the terminal), so the command's tree is read once more: every command
of the program's name in it must end with its output (descriptor 1) on ``/dev/null``,
redirections read in order (``>/dev/null 2>&1`` discards both; ``2>&1 >/dev/null`` only
the output, which is enough; ``>/dev/null 1>&2`` prints it after all). A command of that
name the tree cannot place (behind a wrapper, in a script given to ``sh -c``, in a
group's body) leaves the piece unmarked, judged as before.

``pass show -c NAME`` (``--clip``) copies the password to the clipboard and prints only
a line saying so; it is marked too, unless the command also names a program that reads
the clipboard (``&& xsel -b`` would print it after all).
"""

from __future__ import annotations

import re
from functools import lru_cache

from tree_sitter import Node

from amplifier_hooks.guard.lonedollars import bash_tree
from amplifier_hooks.guard.model import Piece

__all__ = ["CLIPPERS", "DECRYPTERS", "OUTPUT_DISCARDED", "mark_discarded"]

OUTPUT_DISCARDED = "@output-discarded"
"""A piece whose output (descriptor 1) goes to ``/dev/null`` only."""
DECRYPTERS = frozenset({"sops", "gpg", "gpg2", "age", "rage"})
"""The programs `mark_discarded` reads (`credential-decrypt-print`'s)."""
_NULL = "/dev/null"
CLIPPERS = frozenset({"pass"})
"""The password stores whose ``-c`` `mark_discarded` reads."""
_CLIP = re.compile(r"-c[0-9]*|--clip(?:=[0-9]+)?")
_CLIPBOARD = frozenset({"xclip", "xsel", "clipster", "copyq", "pbpaste", "wl-paste",
                        "termux-clipboard-get", "gpaste-client", "cliphist"})  # fmt: skip
"""Programs that read (or may read) the clipboard."""
_MAX_NODES = 20_000


def mark_discarded(command: str, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each decrypter whose output is thrown away marked."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        program = piece.program
        if piece.tool != "bash" or piece.dynamic:
            continue
        if program in CLIPPERS:
            if not _clipped(piece.args) or any(p.program in _CLIPBOARD for p in pieces):
                continue
        elif not _discarded(piece, command):
            continue
        out = out or list(pieces)
        out[index] = piece._replace(wrappers=(*piece.wrappers, OUTPUT_DISCARDED))
    return pieces if out is None else tuple(out)


def _discarded(piece: Piece, command: str) -> bool:
    """A decrypter whose every write is ``/dev/null``, its output among them."""
    program = piece.program or ""
    if program not in DECRYPTERS or piece.pipes_to or not piece.writes:
        return False
    if any(w != _NULL for w in piece.writes):
        return False
    if any(a.startswith("--use-e") for a in piece.args):
        return False  # gpg --use-embedded-filename writes the file the message names
    return _all_discarded(command, program)


def _clipped(args: tuple[str, ...]) -> bool:
    """``pass [show] -c NAME``: one name, copied (no ``-q``: a QR code printed)."""
    rest = args[1:] if args[:1] == ("show",) else args
    options = [a for a in rest if a.startswith("-")]
    names = [a for a in rest if not a.startswith("-")]
    return len(names) == 1 and bool(options) and all(_CLIP.fullmatch(o) for o in options)


@lru_cache(maxsize=256)
def _all_discarded(command: str, program: str) -> bool:
    """Whether ``command`` names ``program`` as a command, and each such command's output
    ends on ``/dev/null``. Pure: a function of the text."""
    root, _ = bash_tree(command.encode("utf-8", "replace"))
    if root.has_error:
        return False
    found = 0
    stack: list[Node] = [root]
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > _MAX_NODES:
            return False  # too large to read in full: nothing is known
        if node.type == "command" and _name(node) == program:
            parent = node.parent
            if parent is None or parent.type != "redirected_statement":
                return False
            if parent.child_by_field_name("body") != node or not _nulled(parent):
                return False
            found += 1
        stack.extend(node.children)
    return found > 0


def _name(command: Node) -> str | None:
    name = command.child_by_field_name("name")
    return None if name is None or name.text is None else name.text.decode("utf-8", "replace")


def _nulled(statement: Node) -> bool:
    """Whether the redirections of ``statement``, in order, leave descriptor 1 on
    ``/dev/null`` (False for any it does not read)."""
    nulled = {1: False, 2: False}  # (False: the terminal, or a file the model may read)
    for redirect in statement.children_by_field_name("redirect"):
        if redirect.type != "file_redirect":
            return False
        operator = next((c.type for c in redirect.children if not c.is_named), "")
        descriptor = redirect.child_by_field_name("descriptor")
        destination = redirect.child_by_field_name("destination")
        if destination is None or destination.text is None:
            return False
        target = destination.text.decode("utf-8", "replace")
        number = int(descriptor.text or b"-1") if descriptor is not None else None
        if operator in ("&>", "&>>") or (operator == ">&" and destination.type != "number"):
            if number is not None:
                return False
            nulled[1] = nulled[2] = target == _NULL
        elif operator == ">&":  # `2>&1`, `1>&2`: a copy of another descriptor
            nulled[1 if number is None else number] = nulled.get(int(target), False)
        elif operator in (">", ">>", ">|"):
            nulled[1 if number is None else number] = target == _NULL
        elif operator not in ("<", "<<<"):
            return False
    return nulled[1]
