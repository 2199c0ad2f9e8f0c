"""Whether a piece only reads, as the program table reads it: the test a rule's
``reads_only`` makes.

Some rules speak for a whole kind of call because most of its calls change something
(``sudo``: anything as root; ``git config`` with a key that runs code). The same kind of
call made only to look (``sudo iptables -L``, ``git config --get core.hooksPath``) is told
apart by the table, never by its name: the program, every option and operand it is given
and every variable set for it are read, and every act is a read. A wrapper that never
grants (sudo, doas) keeps the piece understood; an option of it that changes what runs or
where (``sudo -e``, ``-s``, ``-D``: `table.wrapping`) does not.

``ssh HOST COMMAND`` only looks when ssh is given only options that change nothing it
runs here (no ``-o``, no config file, no forwarding) and COMMAND, read with the same
grammar as the remote shell reads it, is pieces that each only look and name no file
(``uptime``, ``df -h``, ``journalctl -u api``): the other machine's files are not places
the guard knows, so no file named there is taken as a look.
"""

from __future__ import annotations

from functools import lru_cache

from amplifier_hooks.guard.envs import doubt_of
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.paths import QUIET_DEVICES
from amplifier_hooks.guard.table import Does, read_call
from amplifier_hooks.guard.table.network import SSH
from amplifier_hooks.guard.table.options import read_options
from amplifier_hooks.guard.table.wrapping import WRAPPING
from amplifier_hooks.guard.wrappers import UNGRANTED_WHY

__all__ = ["reads_only"]

_UNDERSTOOD = frozenset({"sudo", "doas", *WRAPPING})
"""Wrappers a piece that only reads may run under: those whose options the table reads."""


@lru_cache(maxsize=1024)  # pure on the piece; asked once per rule that names it
def reads_only(piece: Piece) -> bool:
    """``piece`` is a shell command the table reads in full and finds only reading: no
    write, delete, command run, network or link, no redirection into a file, no variable
    that runs code, no argument known only at run time."""
    program = piece.program
    if piece.tool != "bash" or program is None or piece.opaque is not None:
        return False
    if piece.dynamic or piece.function or piece.feeds_code or piece.fed is not None:
        return False
    if piece.doubt is not None and piece.doubt not in UNGRANTED_WHY:
        return False
    if not _UNDERSTOOD.issuperset(piece.wrappers):
        return False
    if any(w not in QUIET_DEVICES for w in piece.writes):
        return False
    if piece.env and doubt_of(piece.env) is not None:
        return False
    if program == "ssh":
        return not piece.wrappers and _remote_looks(piece.args)
    reading = read_call(program, piece.args)
    return reading.doubt is None and all(act.does == Does.READ for act in reading.acts)


_SSH_PLAIN = frozenset({"-4", "-6", "-C", "-n", "-q", "-T", "-t", "-v", "-x", "-p", "-l"})
"""ssh's options that change nothing it runs or reaches but the host's port and user."""
_REMOTE_WRAPPERS = frozenset({"sudo", "doas"})
"""Wrappers a look run there may be under: a look as root names no file (the module doc)
and `reads_only` reads the wrapper's options as it does here (``sudo nginx -t``)."""


def _remote_looks(args: tuple[str, ...]) -> bool:
    """``ssh ARGS`` runs a command on another machine that only looks (module doc)."""
    read = read_options(SSH, args)
    if read.doubt is not None or len(read.operands) < 2:
        return False
    if any(given.opt.names[0] not in _SSH_PLAIN for given in read.given):
        return False
    parsed = parse_command(" ".join(read.operands[1:]))
    if parsed.problem is not None or not parsed.pieces:
        return False
    for piece in parsed.pieces:
        if piece.program == "ssh" or not _REMOTE_WRAPPERS.issuperset(piece.wrappers):
            return False
        if not reads_only(piece):
            return False
        if read_call(piece.program or "", piece.args).acts:
            return False
    return True
