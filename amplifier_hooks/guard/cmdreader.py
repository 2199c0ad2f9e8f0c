"""cmd.exe's command text (``cmd /c "rd /s /q X & del Y"``) read as the POSIX shell command
that does the same, so the guard's rules judge it.

cmd.exe splits commands at ``&``, ``&&``, ``||`` and ``|``, drops its ``^`` escapes, expands
``%VAR%`` (a variable naming a place is that place: `winvars`), and keeps ``\\`` as the
separator of a path. Its built-ins are written as the POSIX commands that do the same
(``rd /s /q`` is ``rm -r -f``, ``del`` is ``rm -f``, ``type`` is ``cat``, ``copy nul F`` empties
``F``); any other program keeps its words, its ``/X`` options written ``-X`` when it is a
Windows program (`winprograms`), so they are not read as paths below ``/``.
"""

from __future__ import annotations

import re
import shlex

from amplifier_hooks.guard.winprograms import Shells, builtin_or_program
from amplifier_hooks.guard.winvars import ENV_PLACES, posix_path

__all__ = ["cmd_words", "read_cmd"]

_SPLIT = re.compile(r'"[^"]*"?|\^.|&&|\|\||[&|()]|(?:[12]?>>?)(?:&[12])?|<|[^\s"^&|()<>]+|\s+')
_SPLIT_POSIX = re.compile(
    r"""'[^']*'?|"[^"]*"?|\^.|&&|\|\||[&|()]|(?:[12]?>>?)(?:&[12])?|<|[^\s"'^&|()<>]+|\s+"""
)
"""The same, for a POSIX shell's piece: its single quotes quote too (the shell took them)."""
_VARIABLE = re.compile(r"%([A-Za-z_][\w()]*)(?::[^%]*)?%")
_HOME_PAIR = re.compile(r"%HOMEDRIVE%%HOMEPATH%", re.IGNORECASE)
_SECRET = re.compile(r"token|secret|passw|key|credential", re.IGNORECASE)


def _expand(text: str) -> str:
    """``text`` with its ``%VAR%`` put as places, or ``$VAR`` (known at run time)."""
    text = _HOME_PAIR.sub("%USERPROFILE%", text)

    def one(found: re.Match[str]) -> str:
        name = found.group(1)
        place = ENV_PLACES.get(name.lower())
        return place if place is not None else "\x00" + name + "\x00"

    return _VARIABLE.sub(one, text)


def cmd_words(text: str, home_name: str, posix: bool = False) -> list[list[tuple[str, str | None]]]:
    """``text``'s commands, each as its words (shell text, plain text or None when a
    variable is in it), with the operator after each command as a last ``("op", op)``
    (``posix``: a POSIX shell's piece, whose single quotes quote too)."""
    commands: list[list[tuple[str, str | None]]] = [[]]
    word = ""
    quoted = False
    for part in (_SPLIT_POSIX if posix else _SPLIT).findall(_expand(text)):
        if part.isspace():
            if word or quoted:
                commands[-1].append(_word(word, home_name))
            word, quoted = "", False
            continue
        if part in ("&", "&&", "||", "|", "(", ")") or part.startswith(("<", ">", "1>", "2>")):
            if word or quoted:
                commands[-1].append(_word(word, home_name))
            word, quoted = "", False
            if part in ("(", ")"):
                continue
            if part.startswith(("<", ">", "1>", "2>")):
                commands[-1].append(("redir", part))
                continue
            commands[-1].append(("op", part))
            commands.append([])
            continue
        if part.startswith("^"):
            word += part[1:]
        elif part.startswith(('"', "'")):
            word += part[1:-1] if len(part) > 1 and part[-1] == part[0] else part[1:]
            quoted = True
        else:
            word += part
    if word or quoted:
        commands[-1].append(_word(word, home_name))
    return [c for c in commands if c]


def _word(raw: str, home_name: str) -> tuple[str, str | None]:
    if "\x00" not in raw:
        pathlike = ("\\" in raw and not (raw[:1] == "\\" and raw[1:2] != "\\")) or raw[1:3] == ":/"
        plain = posix_path(raw, home_name) if pathlike else raw  # (`\\Task\\Name`: no path)
        return (_quote(plain), plain)
    parts = raw.split("\x00")
    out: list[str] = []
    for n, part in enumerate(parts):
        if n % 2:
            out.append('"${' + re.sub(r"\W", "_", part) + '}"')
        elif part:
            out.append(shlex.quote(part.replace("\\", "/")))
    return ("".join(out), None)


def _quote(text: str) -> str:
    if text == "~" or text.startswith("~/"):
        return "~" + (shlex.quote(text[1:]) if len(text) > 1 else "")
    return shlex.quote(text)


def read_cmd(
    text: str, shells: Shells, posix: bool = False, drives: dict[str, str] | None = None
) -> str:
    """``text`` (what ``cmd /c`` is given) as POSIX shell text (``posix``: `cmd_words`;
    ``drives``: the drives ``subst`` mapped so far, kept across a script's commands;
    ``shells``: how a shell it starts is read, `psreader.CmdShells`)."""
    home_name = shells.home_name
    said: list[str] = []
    drives = {} if drives is None else drives
    for command in _substituted(cmd_words(text, home_name, posix), drives, home_name):
        op = command[-1][1] if command[-1][0] == "op" else None
        words: list[tuple[str, str | None]] = []
        redirects: list[str] = []
        items = command[:-1] if op is not None else command
        n = 0
        while n < len(items):
            kind, plain = items[n]
            n += 1
            if kind != "redir" or plain is None:
                words.append((kind, plain))
                continue
            if plain.endswith(("&1", "&2")) or n >= len(items):
                redirects.append(plain)
                continue
            target = items[n]
            n += 1
            nul = target[1] is not None and target[1].lower() == "nul"
            redirects.append(f"{plain} " + ("/dev/null" if nul else target[0]))
        line = builtin_or_program(words, shells) + "".join(" " + r for r in redirects)
        said.append(line + {None: "", "&": ";", "&&": " &&", "||": " ||", "|": " |"}[op])
    return " ".join(said).rstrip(";|& ") or "true"


def _substituted(
    commands: list[list[tuple[str, str | None]]], drives: dict[str, str], home_name: str
) -> list[list[tuple[str, str | None]]]:
    """``commands`` with a drive ``subst X: PATH`` made earlier put as that path."""
    found: list[list[tuple[str, str | None]]] = []
    for command in commands:
        words = [(w, p) for w, p in command if w not in ("op", "redir")]
        if len(words) >= 3 and (words[0][1] or "").lower() == "subst" and words[2][1]:
            drives[(words[1][1] or "").lower().rstrip(":")] = words[2][1]
        changed: list[tuple[str, str | None]] = []
        for shell, plain in command:
            root = drives.get(plain[:1].lower()) if plain and plain[1:2] == ":" else None
            if root is not None and plain is not None and shell not in ("op", "redir"):
                plain = root.rstrip("/") + "/" + plain[2:].lstrip("/\\").replace("\\", "/")
                shell = _quote(plain)
            changed.append((shell, plain))
        found.append(changed)
    return found


def secret_name(name: str) -> bool:
    """Whether a variable's name says it holds a secret."""
    return _SECRET.search(name) is not None
