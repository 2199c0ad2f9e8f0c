"""Scripts the guard did not read: a build or CI file that holds more scripts than are
judged one by one (`MAX_SCRIPTS`), or more text than is read at all.

Judging each script costs a parse; past `MAX_SCRIPTS` the rest are left unread, so a
harmful one after many harmless ones would pass unjudged. Such a write is asked instead
(``planted-scripts-unread``), unless a script that was read is denied: the deny outranks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from amplifier_hooks.guard.model import Piece

__all__ = ["LISTED", "MAX_SCRIPTS", "UNREAD_SCRIPTS", "read_first", "unread_text"]

UNREAD_SCRIPTS = "@scripts-unread"
"""The mark of a write whose scripts were not all read (``planted-scripts-unread``)."""
MAX_SCRIPTS = 64
"""Scripts of one file judged one by one."""
LISTED = MAX_SCRIPTS + 1
"""Scripts listed of one file: one more than are read, which tells that some are left."""

_T = TypeVar("_T")


def read_first(scripts: Sequence[_T], path: str, tool: str) -> tuple[list[_T], tuple[Piece, ...]]:
    """The scripts of the file at ``path`` that are read (the first `MAX_SCRIPTS`), and a
    piece marked `UNREAD_SCRIPTS` when there were more (none: all are read)."""
    if len(scripts) <= MAX_SCRIPTS:
        return list(scripts), ()
    why = (f"{path} holds more than {MAX_SCRIPTS} scripts {tool} runs; the guard reads the "
           f"first {MAX_SCRIPTS} one by one")  # fmt: skip
    return list(scripts[:MAX_SCRIPTS]), (_unread(path, why),)


def unread_text(path: str, tool: str, limit: int) -> Piece:
    """The piece marked `UNREAD_SCRIPTS` of a file whose text is longer than ``limit``
    (characters the guard reads): none of its scripts is read."""
    why = f"{path} holds code {tool} runs, in more than {limit} characters the guard reads"
    return _unread(path, why)


def _unread(path: str, why: str) -> Piece:
    return Piece(text=path, program="true", wrappers=(UNREAD_SCRIPTS,), doubt=why)
