"""The pieces PowerShell's command text is split into (`pstree` reads them from the
grammar's tree; `pslex` where the grammar cannot): the statements, the commands of each
pipeline, and each command's tokens."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["GrammarGap", "Statement", "Token", "Unreadable", "joined"]


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
    parts: tuple[tuple[str, str], ...] = ()
    """An expandable string's pieces: ``("lit", text)`` with its escapes resolved,
    ``("var", "$name")``, ``("sub", statements)`` as the grammar found them; ``("word",
    text)`` and ``("dq", raw)`` a bare word's and a string's text to expand (`joined`).
    None: read its text."""


class Statement(NamedTuple):
    """A statement's pipeline: the tokens of each command, in order."""

    commands: tuple[tuple[Token, ...], ...]


_JOINABLE = frozenset({"word", "sq", "dq", "sub"})


def joined(tokens: tuple[Token, ...]) -> tuple[Token, ...]:
    """``tokens`` with each run of pieces written with no space between them one argument,
    as PowerShell passes it (``$HOME".aws"``, ``C:\\x\\"a b"``): an expandable string of
    the pieces' parts. A ``-Name:`` keeps the value glued to it (its own binding)."""
    found: list[Token] = []
    for token in tokens:
        before = found[-1] if found else None
        if (
            before is None
            or not token.glued
            or token.kind not in _JOINABLE
            or before.kind not in _JOINABLE
            or token.members
            or before.members
            or (before.kind == "word" and before.text.startswith("-"))
        ):
            found.append(token)
            continue
        found[-1] = Token("dq", before.text + token.text, parts=_parts(before) + _parts(token))
    return tuple(found)


def _parts(token: Token) -> tuple[tuple[str, str], ...]:
    """A piece's parts (`Token.parts`): its text read as the piece's kind is."""
    if token.kind == "sq":
        return (("lit", token.text),)
    if token.kind == "sub":
        return (("sub", token.text),)
    if token.kind == "dq":
        return token.parts or (("dq", token.text),)
    return (("word", token.text),)
