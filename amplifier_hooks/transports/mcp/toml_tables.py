"""Rewriting one ``[mcp_servers.NAME]`` table of a Codex ``config.toml`` as text.

The standard library reads TOML but does not write it, and a config rewritten from its
parsed data would lose its comments and layout. So a table is edited where it stands: its
``command``, ``args`` and ``url`` lines are replaced, everything else in the file is left
byte for byte, and the result is read back to check that it says what was meant.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any, NamedTuple

__all__ = ["TableEdit", "TomlEditError", "edit_table"]

_REPLACED = ("command", "args", "url")


class TomlEditError(ValueError):
    """The table cannot be edited as text (an inline table, a dotted key...)."""


class TableEdit(NamedTuple):
    """The file with the table replaced, and the table's text before and after."""

    text: str
    before: str
    after: str


def _header(name: str) -> re.Pattern[str]:
    quoted = re.escape(json.dumps(name))
    bare = re.escape(name)
    return re.compile(
        rf"^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:{bare}|{quoted})[ \t]*\][ \t]*(?:#.*)?$",
        re.MULTILINE,
    )


def _value(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def edit_table(text: str, name: str, entry: dict[str, Any]) -> TableEdit:
    """``text`` with server ``name``'s table holding ``entry``'s command and args (its
    url line removed); `TomlEditError` when the table is not written as a plain table."""
    match = _header(name).search(text)
    if match is None:
        raise TomlEditError(f"[mcp_servers.{name}] is not written as a table of its own")
    start = match.end() + 1 if match.end() < len(text) else match.end()
    following = re.compile(r"^[ \t]*\[", re.MULTILINE).search(text, start)
    end = following.start() if following else len(text)
    body = text[start:end].splitlines(keepends=True)
    kept: list[str] = []
    skipping = 0
    for line in body:
        if skipping:
            skipping += _depth(line)
            if skipping <= 0:
                skipping = 0
            continue
        key = re.match(r"^[ \t]*([A-Za-z0-9_\-\"]+)[ \t]*=", line)
        if key is not None and key.group(1).strip('"') in _REPLACED:
            skipping = max(0, _depth(line[key.end() :]))
            continue
        kept.append(line)
    args = ", ".join(_value(a) for a in entry["args"])
    newline = "\n" if not text[match.start() : match.end()].endswith("\r") else "\r\n"
    lines = [f"command = {_value(entry['command'])}{newline}", f"args = [{args}]{newline}"]
    header = text[match.start() : start]
    if not header.endswith("\n"):
        header += newline
    before = text[match.start() : end]
    after = header + "".join(lines) + "".join(kept)
    edited = text[: match.start()] + after + text[end:]
    check = tomllib.loads(edited).get("mcp_servers", {}).get(name, {})
    if check.get("command") != entry["command"] or check.get("args") != entry["args"]:
        raise TomlEditError(f"[mcp_servers.{name}] could not be rewritten as text")
    return TableEdit(edited, before, after)


def _depth(text: str) -> int:
    """Brackets opened minus closed in ``text``, outside strings and comments."""
    depth = 0
    quote = ""
    escaped = False
    for char in text:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
    return depth
