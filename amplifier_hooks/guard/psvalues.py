"""What a PowerShell token stands for, as a word of the POSIX shell the guard's rules read.

A word is kept as segments: literal text, a variable (``$env:GITHUB_TOKEN`` is
``$GITHUB_TOKEN`` to the rules on printed secrets) and a sub-expression (written as
``$(...)`` around its commands, so a download fed to ``iex`` is seen as code fed). A
variable that names a place (``$HOME``, ``$env:APPDATA``, ``$PROFILE``) is its path
(`winvars`), and one the same command set to a literal is that literal.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from typing import NamedTuple

from amplifier_hooks.guard.psexpr import dq_literal
from amplifier_hooks.guard.pstokens import Token
from amplifier_hooks.guard.winvars import folder_path, posix_path, variable_place

__all__ = ["Value", "Values", "quote"]

_ESCAPED_DOLLAR = "\x00$"
"""An escaped `` `$ `` in an expandable string, marked so that `_expand` keeps it a ``$``
and reads no variable there."""

_VARIABLE = re.compile(
    r"\$(?:\{(?P<braced>[^}]*)\}|(?P<name>(?:env:|global:|script:)?[A-Za-z_][\w]*"
    r"(?:\((?:x86)\))?)(?P<prop>\.CurrentUser\w+|\.AllUsers\w+)?|(?P<special>[_?^$]))"
)
_FOLDER = re.compile(
    r"^\s*\[(?:system\.)?environment\]::getfolderpath\(\s*(['\"]?)([\w.]+)\1\s*\)\s*$", re.I
)
_NAME = re.compile(r"[^A-Za-z0-9_]")
_HOME_PAIR = re.compile(r"\$(?:env:homedrive|\{env:homedrive\})\$(?:env:homepath|\{env:homepath\})",
                        re.IGNORECASE)  # fmt: skip
"""``$env:HOMEDRIVE$env:HOMEPATH``: the home folder, as ``%HOMEDRIVE%%HOMEPATH%`` is."""


class Value(NamedTuple):
    """A token's value: the POSIX shell text that stands for it, and its plain text when it
    is literal (None: something in it is known only at run time)."""

    shell: str
    plain: str | None


Sub = Callable[[str], str]
"""Reads a sub-expression's PowerShell and gives the POSIX command text it runs."""
Only = Callable[[str], Token | None]
"""A sub-expression's one value when it holds nothing else (``$($HOME)``; None: it runs
commands, or holds more than one value)."""


class Values:
    """Expands tokens with what the command has set so far (``$u = "https://..."``)."""

    def __init__(self, home_name: str, sub: Sub, only: Only) -> None:
        self.home_name = home_name
        self.sub = sub
        self.only = only
        self.assigned: dict[str, list[tuple[str, str]]] = {}

    def of(self, token: Token, path: bool = False) -> Value:
        """``token``'s value (``path``: a path, with ``/`` for ``\\`` and home spelled ``~``)."""
        return self._render(self.segments(token), path)

    def assign(self, name: str, token: Token) -> None:
        """Remember that the command set variable ``name`` to ``token``'s value."""
        self.assigned[name.lower()] = self.segments(token)

    def segments(self, token: Token) -> list[tuple[str, str]]:
        """``token``'s value as literal, variable and sub-expression segments."""
        if token.kind == "sq":
            segments: list[tuple[str, str]] = [("lit", token.text)]
        elif token.kind == "dq" and token.parts:
            segments = self._parts(token.parts)
        elif token.kind == "dq":
            segments = self._expand(dq_literal(token.text, _ESCAPED_DOLLAR))
        elif token.kind == "word":
            segments = self._expand(token.text)
        elif token.kind in ("sub", "paren"):
            segments = self._subexpression(token.text)
        else:
            segments = [("var", "PSVALUE")]
        if token.members and token.kind not in ("sub", "paren"):
            segments = [("var", "PSVALUE")]  # a member of a value: known only at run time
        return segments

    def _parts(self, parts: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
        """An expandable string's parts the grammar found, each as its segments."""
        segments: list[tuple[str, str]] = []
        for kind, text in _home_pairs(parts):
            if kind == "lit":
                segments.append(("lit", text))
            elif kind == "sub":
                segments.extend(self._subexpression(text))
            elif kind == "dq":
                segments.extend(self._expand(dq_literal(text, _ESCAPED_DOLLAR)))
            else:  # a variable the grammar found, or a bare word: its own text
                segments.extend(self._expand(text))
        return [s for s in segments if s != ("lit", "")]

    def _expand(self, text: str) -> list[tuple[str, str]]:
        text = _HOME_PAIR.sub("$env:USERPROFILE", text)
        segments: list[tuple[str, str]] = []
        i = 0
        while i < len(text):
            at = text.find("$", i)
            if at < 0:
                segments.append(("lit", text[i:]))
                break
            if at > 0 and text[at - 1] == "\x00":  # an escaped `$
                segments.append(("lit", text[i : at - 1] + "$"))
                i = at + 1
                continue
            if text.startswith("$(", at):
                segments.append(("lit", text[i:at]))
                end = _closing(text, at + 1)
                segments.extend(self._subexpression(text[at + 2 : end]))
                i = end + 1
                continue
            found = _VARIABLE.match(text, at)
            if found is None:
                segments.append(("lit", text[i : at + 1]))
                i = at + 1
                continue
            segments.append(("lit", text[i:at]))
            segments.extend(self._variable(found))
            i = found.end()
        return [s for s in segments if s != ("lit", "")]

    def _variable(self, found: re.Match[str]) -> list[tuple[str, str]]:
        name = found.group("braced") or found.group("name") or found.group("special")
        name = re.sub(r"^(?:global|script):", "", name, flags=re.IGNORECASE)
        place = variable_place(name + (found.group("prop") or ""))
        if place is not None:
            return [("lit", place)]
        lowered = name.lower()
        if lowered in ("true", "false"):
            return [("lit", "$" + lowered)]
        if lowered == "null":
            return [("lit", "")]
        if lowered == "pwd":
            return [("lit", ".")]
        if lowered in self.assigned:
            return list(self.assigned[lowered])
        if lowered.startswith("env:"):
            return [("var", _NAME.sub("_", name[4:]))]
        return [("var", "PSITEM" if name == "_" else "PS_" + _NAME.sub("_", name))]

    def _subexpression(self, inner: str) -> list[tuple[str, str]]:
        folder = _FOLDER.match(inner)
        if folder is not None:
            place = folder_path(folder.group(2))
            if place is not None:
                return [("lit", place)]
        value = self.only(inner)
        if value is not None:  # `"$($env:USERPROFILE)\x"`: the value's own segments
            return self.segments(value)
        return [("sub", self.sub(inner))]

    def _render(self, segments: list[tuple[str, str]], path: bool) -> Value:
        if all(kind == "lit" for kind, _ in segments):
            plain = "".join(text for _, text in segments)
            if path:
                plain = posix_path(plain, self.home_name)
            return Value(quote(plain), plain)
        parts: list[str] = []
        for n, (kind, text) in enumerate(segments):
            if kind == "lit":
                text = text.replace("\\", "/") if path else text
                parts.append(quote(text))
            elif kind == "var":
                after = segments[n + 1][1][:1] if n + 1 < len(segments) else ""
                braced = after.isalnum() or after == "_"
                parts.append('"${' + text + '}"' if braced else '"$' + text + '"')
            else:
                parts.append('"$(' + text + ')"')
        return Value("".join(parts), None)


def _home_pairs(parts: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """``parts`` with ``$env:HOMEDRIVE`` then ``$env:HOMEPATH`` as one ``$env:USERPROFILE``."""
    found: list[tuple[str, str]] = []
    for part in parts:
        if (
            part[0] == "var"
            and len(found) >= 2
            and found[-1] == ("lit", "")
            and found[-2][0] == "var"
            and _HOME_PAIR.fullmatch(found[-2][1] + part[1])
        ):
            found[-2:] = [("var", "$env:USERPROFILE")]
            continue
        found.append(part)
    return found


def quote(text: str) -> str:
    """``text`` as one POSIX word; a leading ``~`` stays the home folder."""
    if text == "~" or text.startswith("~/"):
        return "~" + (shlex.quote(text[1:]) if len(text) > 1 else "")
    return shlex.quote(text)


def _closing(text: str, opening: int) -> int:
    """The index of the ``)`` that closes the ``(`` at ``opening`` (quotes respected)."""
    depth = 0
    mark = ""
    for i in range(opening, len(text)):
        c = text[i]
        if mark:
            if c == mark:
                mark = ""
            continue
        if c in "'\"":
            mark = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
    return len(text)
