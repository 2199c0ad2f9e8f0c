"""The .NET calls PowerShell text makes without a cmdlet (``[IO.Directory]::Delete(p,
$true)``, ``(New-Object Net.WebClient).DownloadString(u)``, ``.GetNetworkCredential()``),
each written as the POSIX command that does the same, so the rules judge it.

A .NET call's object is rarely known from the text alone, so they are found by their
method's name (with the type where it is static) and their arguments read as PowerShell
values; none of them is granted (`psreader` counts any as not a read).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from amplifier_hooks.guard.pstokens import GrammarGap, Statement, Token, Unreadable

if TYPE_CHECKING:
    from amplifier_hooks.guard.psvalues import Values

__all__ = ["CREDENTIAL", "Split", "dotnet_acts"]

Split = Callable[[str, int], list[Statement]]
"""How PowerShell text is split into statements (`pstree`'s grammar, or its fallback)."""

CREDENTIAL = "ps::credential"
"""The program a call that reads a stored secret is written as (a saved credential's
password, the credential vault, DPAPI's decryption): the pack denies it."""

_CALL = re.compile(
    r"(?:\[(?:system\.)?(?P<type>[\w.]+)\]::|\.)(?P<method>[A-Za-z]\w*)\s*\(", re.IGNORECASE
)
_TYPED = {
    ("io.file", "delete"): "rm", ("io.directory", "delete"): "rm -r -f",
    ("io.file", "writealltext"): ">", ("io.file", "writealllines"): ">",
    ("io.file", "writeallbytes"): ">", ("io.file", "appendalltext"): ">>",
    ("io.file", "appendalllines"): ">>", ("io.file", "create"): ">",
    ("io.file", "readalltext"): "cat", ("io.file", "readallbytes"): "cat",
    ("io.file", "readalllines"): "cat", ("io.file", "openread"): "cat",
    ("io.file", "copy"): "cp -f", ("io.file", "move"): "mv", ("io.directory", "move"): "mv",
    ("environment", "setenvironmentvariable"): "setenv",
    ("scriptblock", "create"): "code", ("diagnostics.process", "start"): "run",
    ("security.cryptography.protecteddata", "unprotect"): "secret",
    ("runtime.interopservices.marshal", "ptrtostringauto"): "secret",
    ("runtime.interopservices.marshal", "ptrtostringbstr"): "secret",
    ("io.compression.zipfile", "extracttodirectory"): "unzip",
}  # fmt: skip
_METHODS = {
    "downloadstring": "get", "downloadfile": "get", "downloaddata": "get",
    "openread": "get", "uploadstring": "send", "uploadfile": "send", "uploaddata": "send",
    "uploadvalues": "send", "getnetworkcredential": "secret", "retrievepassword": "secret",
    "retrieveall": "secret", "delete": "rm -r -f", "createshortcut": "touch",
    "moveto": "mv", "copyto": "cp -f", "run": "run", "shellexecute": "run",
    # `$ExecutionContext.InvokeCommand.InvokeScript(S)`, `.NewScriptBlock(S)` and
    # `.ExpandString(S)` (its `$(...)` run) run S as Invoke-Expression does
    "invokescript": "code", "newscriptblock": "code", "expandstring": "code",
}  # fmt: skip


def dotnet_acts(text: str, values: Values, split: Split) -> list[str]:
    """The POSIX commands for the .NET calls in ``text``."""
    if "(" not in text:
        return []
    found: list[str] = []
    for call in _CALL.finditer(text):
        kind = (call.group("type") or "").lower()
        method = call.group("method").lower()
        what = _TYPED.get((kind, method)) if kind else _METHODS.get(method)
        if what is None:
            continue
        args = _arguments(text, call.end() - 1, values, split)
        if not kind and what in ("rm -r -f", "cp -f", "mv"):  # a method of an item
            item = _item(text, call.start(), values, split)
            args = (
                [item or '"$PSVALUE"', *args[:1]] if what != "rm -r -f" else [item or '"$PSVALUE"']
            )
        said = _said(what, args)
        if said is not None:
            found.append(said)
    return found


def _said(what: str, args: list[str]) -> str | None:
    first = args[0] if args else '"$PSVALUE"'
    second = args[1] if len(args) > 1 else '"$PSVALUE"'
    if what in ("rm", "rm -r -f", "cat", "touch"):
        return f"{what} -- {first}"
    if what in (">", ">>"):
        return f"printf '%s' {second} {what} {first}"
    if what in ("cp -f", "mv"):
        return f"{what} -- {first} {second}"
    if what == "unzip":
        return f"unzip -o {first} -d {second}"
    if what == "setenv":
        scope = args[2].strip("'\"").lower() if len(args) > 2 else ""
        name = first.strip("'\"")
        if scope in ("user", "machine") or "user" in scope or "machine" in scope:
            return f"setx {first} {second}"
        return f"export {name}={second}" if re.fullmatch(r"\w+", name) else None
    if what == "code":
        return f"iex {first}"
    if what == "run":
        return f'{first} "$PSARGS"'
    if what == "get":
        return f"curl -fsSL -- {first}" + (f" -o {second}" if len(args) > 1 else "")
    if what == "send":
        return f"curl -fsSL --data {second} -- {first}"
    return f"{CREDENTIAL} {first}"


_GET_ITEM = re.compile(r"^\s*(?:get-item|gi|get-childitem|gci)\s+(.+?)\s*$", re.I | re.S)


def _item(text: str, dot: int, values: Values, split: Split) -> str | None:
    """The path of the item a method is called on, when it is ``(Get-Item PATH)``."""
    if dot == 0 or text[dot - 1] != ")":
        return None
    depth = 0
    for start in range(dot - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[start], 0)
        if depth == 0:
            found = _GET_ITEM.match(text[start + 1 : dot - 1])
            if found is None:
                return None
            try:
                parsed = split(found.group(1), 1)
            except GrammarGap:  # the whole text is read by the fallback
                raise
            except Unreadable:
                return None
            tokens = parsed[0].commands[0] if parsed else ()
            paths = [t for t in tokens if not (t.kind == "word" and t.text.startswith("-"))]
            return values.of(paths[0], path=True).shell if paths else None
    return None


def _arguments(text: str, opening: int, values: Values, split: Split) -> list[str]:
    """The call's arguments at ``text[opening]`` (its ``(``), as POSIX words."""
    depth = 0
    end = opening
    for end in range(opening, len(text)):
        if text[end] == "(":
            depth += 1
        elif text[end] == ")":
            depth -= 1
            if depth == 0:
                break
    inner = text[opening + 1 : end]
    if not inner.strip():
        return []
    try:
        parsed = split(inner, 1)
    except GrammarGap:
        raise
    except Unreadable:
        return []
    tokens: tuple[Token, ...] = parsed[0].commands[0] if parsed else ()
    words: list[str] = []
    current: list[Token] = []
    pieces: list[Token] = []
    for token in tokens:  # (`$HOME, $true`: a bare word ends at its comma here)
        if token.kind == "word" and "," in token.text:
            for n, part in enumerate(token.text.split(",")):
                pieces.extend([Token("op", ",")] if n else [])
                pieces.extend([Token("word", part)] if part else [])
        else:
            pieces.append(token)
    for token in (*pieces, Token("op", ",")):
        if token == Token("op", ","):
            if current:
                words.append(values.of(current[0], path=True).shell)
            current = []
        else:
            current.append(token)
    return words
