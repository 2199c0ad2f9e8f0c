"""The value of an awk expression as far as its text tells: string literals, the
environment's variables (``ENVIRON["HOME"]``) and variables given one literal value
(``f = ".git/hooks/pre-push"``), concatenated. A part known only when the program runs (a
field, a computed variable) is `None`, so a caller can tell a known file or command from
one that is not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["ENDS", "Parts", "constants", "env_reads", "expression", "joined", "string"]

ENDS = frozenset({";", "}", "{", "\n"})
_STOPS = ENDS | {")", ",", ">", ">>", "|", "|&", "<", "]"}
_ASSIGNS = frozenset("+-*/%^")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_KEYWORDS = frozenset({"print", "printf", "getline", "in", "if", "else", "while", "for", "do",
                       "return", "next", "exit", "delete", "function", "BEGIN", "END"})  # fmt: skip

Parts = tuple[str | None, ...]
"""A value's parts in order: text, or None for a part known only at run time."""


def string(token: str) -> str | None:
    """The text of a string literal token, or None."""
    if len(token) >= 2 and token[0] == '"' and token[-1] == '"':
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), token[1:-1])
    return None


def _environ_name(tokens: Sequence[str], at: int) -> str | None:
    """``ENVIRON["NAME"]`` at ``at``: NAME; None when not one with a literal name."""
    if tokens[at : at + 2] != ["ENVIRON", "["] or tokens[at + 3 : at + 4] != ["]"]:
        return None
    return string(tokens[at + 2]) if at + 2 < len(tokens) else None


def env_reads(tokens: Sequence[str]) -> tuple[tuple[str, ...], bool]:
    """The environment variables the program reads by name, and whether it reads the
    whole environment (``for (k in ENVIRON)``, ``ENVIRON[k]``): what ``printenv`` shows."""
    names: list[str] = []
    dump = False
    for at, token in enumerate(tokens):
        if token != "ENVIRON":
            continue
        name = _environ_name(tokens, at)
        if name is not None:
            names.append(name)
        elif tokens[at + 1 : at + 2] == ["["] or tokens[at - 1 : at] == ["in"]:
            dump = True
    return tuple(dict.fromkeys(names)), dump


def constants(tokens: Sequence[str]) -> dict[str, str]:
    """The variables given one string literal, once, and never changed elsewhere (an
    assignment, ``getline v``, ``for (v in a)``, a ``sub``/``split`` target, ``-v``)."""
    assigned: dict[str, list[str | None]] = {}
    touched: set[str] = set()
    for at, token in enumerate(tokens):
        if not _NAME.match(token) or token in _KEYWORDS:
            continue
        before = tokens[at - 1] if at else ";"
        after = tokens[at + 1 : at + 3]
        if after[:1] == ["="] and after[1:] != ["="] and before not in ("=", "!", "<", ">"):
            value = string(after[1]) if len(after) > 1 else None
            following = tokens[at + 3] if at + 3 < len(tokens) else ";"
            assigned.setdefault(token, []).append(value if following in ENDS else None)
        elif (after[:1] and after[0] in _ASSIGNS and tokens[at + 2 : at + 3] == ["="]) or (
            after[:2] in (["+", "+"], ["-", "-"]) or before in ("getline", ",", "+", "-")
            or after[:1] == ["in"]
        ):  # fmt: skip
            touched.add(token)
    return {
        name: values[0]
        for name, values in assigned.items()
        if len(values) == 1 and values[0] is not None and name not in touched
    }


def expression(tokens: Sequence[str], at: int, known: dict[str, str]) -> tuple[Parts, int]:
    """The parts of the concatenation starting at ``at``, and the index past it (at a
    statement's end, a closing parenthesis, a comma or a redirection)."""
    parts: list[str | None] = []
    while at < len(tokens) and tokens[at] not in _STOPS:
        token = tokens[at]
        text = string(token)
        name = _environ_name(tokens, at)
        if text is not None:
            parts.append(text)
            at += 1
        elif name is not None:
            parts.append(f"${{{name}}}")  # what the shell it runs expands the same way
            at += 4
        elif token in known and tokens[at + 1 : at + 2] != ["["]:
            parts.append(known[token])
            at += 1
        elif token == "(":
            inner, at = expression(tokens, at + 1, known)
            parts.extend(inner)
            if at < len(tokens) and tokens[at] == ")":
                at += 1
            else:
                return (*parts, None), at
        else:
            parts.append(None)
            at += 1
    return tuple(parts), at


def joined(parts: Parts) -> str | None:
    """The whole value, when every part is known."""
    if any(part is None for part in parts):
        return None
    return "".join(part for part in parts if part is not None)
