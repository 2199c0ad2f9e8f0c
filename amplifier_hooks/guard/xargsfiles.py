"""The file ``xargs -a FILE`` (``--arg-file``) reads its arguments from.

Its lines become the command's arguments, so ``xargs -a ~/.ssh/id_rsa echo`` prints the
key: the file is read and shown, judged as ``cat FILE`` (a list of names given to ``rm``
is read the same way, which a project's file list is free to be).
"""

from __future__ import annotations

import re
import shlex

from amplifier_hooks.guard.commandpieces import Command, Reparse
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.options import read_options
from amplifier_hooks.guard.table.wrapping import ARG_FILE, UNGRANTED

__all__ = ["arg_file_reads"]

_PLAIN = re.compile(r"[\w@%+=:,./~-]+")


def arg_file_reads(cmd: Command, depth: int, reparse: Reparse) -> list[Piece]:
    """The pieces of ``cat FILE`` for each file an ``xargs`` of ``cmd`` reads its
    arguments from (none: no xargs, or none given ``-a``)."""
    if "xargs" not in cmd.text:  # (the screen, on the text: most commands hold no xargs)
        return []
    texts = [w.text for w in cmd.words]
    if "xargs" not in texts:
        return []
    at = texts.index("xargs")
    files = read_options(UNGRANTED["xargs"], texts[at + 1 :]).values(ARG_FILE)
    dynamic = {w.text for w in cmd.words if w.dynamic}
    found: list[Piece] = []
    for name in files:
        if name in ("", "-"):
            continue  # (its standard input: what feeds it is judged where it comes from)
        # a plain name as given (its `~` the home folder, as the shell expanded it)
        word = name if name in dynamic or _PLAIN.fullmatch(name) else shlex.quote(name)
        found.extend(reparse(f"cat -- {word}", depth + 1))
    return found
