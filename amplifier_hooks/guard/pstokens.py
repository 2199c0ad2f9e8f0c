"""The pieces PowerShell's command text is split into (`pstree` reads them from the
grammar's tree; `pslex` where the grammar cannot): the statements, the commands of each
pipeline, and each command's tokens."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["GrammarGap", "Statement", "Token", "Unreadable"]


class Unreadable(ValueError):
    """The text is not PowerShell that can be split (an unclosed quote or bracket)."""


class GrammarGap(Unreadable):
    """The grammar cannot say what a piece of the text is (an error in its tree, a node
    the reader does not know): the text is read by the fallback, and not granted."""


class Token(NamedTuple):
    """One token. ``kind``: ``word`` (bare), ``sq`` (single-quoted), ``dq`` (double-quoted,
    expanded later), ``block`` ({...}), ``paren`` ((...), @(...)), ``sub`` ($(...)),
    ``hash`` (@{...}), ``type`` ([T]), ``op`` (``&``, ``.``, ``=``, ``,``), ``redir``
    (``>``, ``2>&1``); ``text`` its text without its delimiters; ``members`` the
    ``.Name`` and ``.Name(args)`` that follow it (``::Name`` for a static one)."""

    kind: str
    text: str
    members: tuple[str, ...] = ()
    glued: bool = False
    """The token follows the one before with no space (``$env:X\\y``, ``-Confirm:$false``)."""


class Statement(NamedTuple):
    """A statement's pipeline: the tokens of each command, in order."""

    commands: tuple[tuple[Token, ...], ...]
