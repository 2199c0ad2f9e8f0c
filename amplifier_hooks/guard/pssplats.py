"""PowerShell's splatting: ``$p = @{Path = $HOME; Recurse = $true}; Remove-Item @p`` gives
the cmdlet the hashtable's entries as its parameters (``-Path $HOME -Recurse``). `psreader`
remembers each hashtable a variable is set to (`splat_tokens`) and puts its parameters
where ``@p`` is written, so the cmdlet is bound and judged as if they were written out.
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.pstokens import GrammarGap, Statement, Token, Unreadable

__all__ = ["splat_tokens", "splatted"]

Split = Callable[[str, int], list[Statement]]


def splat_tokens(text: str, split: Split, depth: int) -> tuple[Token, ...] | None:
    """The parameter tokens the hashtable ``@{text}`` stands for: ``-Key`` for a
    ``$true`` value (a switch), nothing for ``$false``, else ``-Key`` and the value's
    token; None when an entry is not ``Key = value``."""
    try:
        entries = split(text, depth)
    except GrammarGap:
        raise
    except Unreadable:
        return None
    tokens: list[Token] = []
    for entry in entries:
        if len(entry.commands) != 1:
            return None
        parts = entry.commands[0]
        if len(parts) != 3 or parts[1].text != "=" or parts[0].kind not in ("word", "sq", "dq"):
            return None
        key, value = parts[0].text, parts[2]
        switch = value.kind == "word" and value.text.lower() in ("$true", "$false")
        if switch and value.text.lower() == "$false":
            continue
        tokens.append(Token("word", "-" + key))
        if not switch:
            tokens.append(value)
    return tuple(tokens)


def splatted(rest: tuple[Token, ...], splats: dict[str, tuple[Token, ...] | None]
             ) -> tuple[Token, ...] | None:  # fmt: skip
    """``rest`` with each ``@name`` the command set put as its parameters; None when one
    names no hashtable the command set (its parameters are not known)."""
    out: list[Token] = []
    for token in rest:
        if token.kind == "word" and token.text[:1] == "@" and token.text[1:2].isalpha():
            found = splats.get(token.text[1:].lower())
            if found is None:
                return None
            out.extend(found)
        else:
            out.append(token)
    return tuple(out)
