"""Relative words read from the folder a command runs in, when that is a shared temporary
folder: ``cd /tmp && ./x`` runs ``/tmp/x``, ``cd /tmp && go vet -vettool=./x`` runs
``/tmp/x`` on every package. The rules on code from temporary folders match absolute
words (``/tmp/*``, ``-vettool=/tmp/*``); a ``cd`` before the command must not hide them.
"""

from __future__ import annotations

import os

from amplifier_hooks.guard.pathplaces import TEMP_DIRS

__all__ = ["in_temp", "temp_words"]

_RELATIVE = ("./", "../")
_INSIDE_TEMP = tuple(f"{t}/" for t in TEMP_DIRS)
"""(built once: both tests run for every command's piece, `bench_guard`'s fresh row)"""


def _temp_folder(cwd: str | None) -> bool:
    return cwd is not None and (cwd in TEMP_DIRS or cwd.startswith(_INSIDE_TEMP))


def in_temp(word: str, cwd: str | None) -> str | None:
    """The absolute path of a program word (``./x``, ``bin/x``: a word with a ``/``) run
    in ``cwd`` when either is in a shared temporary folder, else None."""
    if word.startswith(_INSIDE_TEMP):
        return word
    if "/" not in word or word.startswith(("/", "~", "$")) or not _temp_folder(cwd):
        return None
    return os.path.normpath(os.path.join(cwd or "", word))


def temp_words(args: tuple[str, ...], cwd: str | None) -> tuple[str, ...] | None:
    """``args`` with each word or option value starting ``./`` or ``../`` made absolute
    against ``cwd``, a shared temporary folder; None when ``cwd`` is not one, or no word
    changes (the everyday command)."""
    if not _temp_folder(cwd):
        return None
    out: list[str] = []
    changed = False
    for arg in args:
        name, equals, value = arg.partition("=") if "=" in arg else ("", "", arg)
        if value.startswith(_RELATIVE) or value in (".", ".."):
            arg = f"{name}{equals}{os.path.normpath(os.path.join(cwd or '', value))}"
            changed = True
        out.append(arg)
    return tuple(out) if changed else None
