"""An in-place edit whose script deletes every line empties its file, as ``> FILE`` does:
``sed -i d F``, ``sed -i '1,$d' F``, ``vim -es -c '%d' -c wq F``, ``ex -s -c '%delete' -c
x F``; so does one that keeps a line or a few of it (``sed -i q F``, ``sed -i '$!d' F``)
or only what it prints (``sed -n -i '' F``, ``sed -ni 1p F``: with ``-n`` and ``-i`` sed
writes back nothing else).

An edit otherwise keeps the rest of the file and names what it changes, so `losses` asks
git nothing about it; an edit that keeps nothing is a truncation, and git's facts judge
it (`truncate-loses-work`) instead of the edit's grant. Read as each program reads its
words: sed's scripts and ``-i`` from the table (``-i.bak`` keeps the old text: nothing
lost), the editor's ``-c``/``+`` commands split at ``|`` and run in order (a delete of
every line counts only when a later command writes the file).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.editors import EDITORS, editor_files, given_commands
from amplifier_hooks.guard.table.sed import scripted

__all__ = ["EMPTIERS", "emptied"]

EMPTIERS = frozenset({"sed", *EDITORS})
"""Programs whose in-place edit `emptied` reads."""

_SED_ALL = re.compile(
    r"^\s*(?:(?:1\s*,\s*\$\s*|/(?:\^|\$|\.|\.\*|\^\.\*|\.\*\$|\^\.\*\$)/\s*)?d"
    r"|(?:\d+|\$)\s*!\s*d|\d*\s*[qQ]\s*\d*"
    r"|s(?P<d>[/#|,:])\^?\.\*\$?(?P=d)(?P=d)g?)\s*;?\s*$"
)
"""sed's script that keeps at most a line or a few: ``d``, ``1,$d``, ``/^/d``, ``/./d``
delete every line (or every line with text); ``$!d`` keeps the last one; ``q``, ``5q``
stop reading (with ``-i`` the rest is lost); ``s/.*//`` blanks every line."""
_SED_PRINTS_ALL = re.compile(r"^\s*p\s*;?\s*$")
"""With ``-n`` sed writes back only what its script prints: ``p`` alone prints every line."""
_EX_ALL = re.compile(r"^[\s:]*(?:%|1\s*,\s*\$)\s*d(?:e(?:l(?:e(?:t(?:e)?)?)?)?)?!?\s*$")
"""An ex command that deletes every line: ``%d``, ``1,$d``, ``:%delete``."""
_EX_WRITE = re.compile(r"^[\s:]*(?:w|wq|wqa|wqall|x|xa|xall|xit|exi|exit|up|update|write)!?\s*$")
"""An ex command that writes the file (``wq``, ``x``, ``w``, ``update``)."""


def emptied(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The files ``program`` run with ``args`` leaves empty in place (none: it keeps their
    text, or the guard cannot tell)."""
    if program == "sed":
        return _sed_emptied(args)
    if program in EDITORS:
        return _editor_emptied(args, program == "ex")
    return ()


def _sed_emptied(args: tuple[str, ...]) -> tuple[str, ...]:
    scripts, read = scripted(args)
    if read.doubt is not None or len(scripts) != 1:
        return ()
    quiet = any(g.opt.names[0] == "-n" for g in read.given)  # `-n`, `--quiet`, `--silent`
    if quiet and _SED_PRINTS_ALL.match(scripts[0]):
        return ()  # `sed -n -i p F` writes back every line
    if not quiet and not _SED_ALL.match(scripts[0]):
        return ()  # an edit that names what it changes keeps the rest
    in_place = [g for g in read.given if g.opt.does == "in-place"]
    if not in_place or any(g.value for g in in_place):
        return ()  # printed, not written back; or `-i.bak`: the old text kept beside it
    return read.operands


def _editor_emptied(args: tuple[str, ...], ex: bool) -> tuple[str, ...]:
    emptying = False
    for given in given_commands(args, ex):
        for command in given.split("|"):
            if _EX_ALL.match(command):
                emptying = True
            elif emptying and _EX_WRITE.match(command):
                return editor_files(args, ex)
    return ()
