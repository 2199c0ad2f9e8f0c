"""The settings a git configuration file's text sets, as the ``git config`` commands they are.

Writing ``core.hooksPath`` or ``core.fsmonitor`` into ``.git/config`` or ``~/.gitconfig``
with a file tool plants code git runs by itself at later commands, exactly as ``git config
core.hooksPath DIR`` does; a pager, an editor or an alias set there runs its command when
git next pages, edits or expands. So the text is read as git reads it (sections, subsections,
quoted values, comments) and each setting becomes ``git config KEY VALUE``, which the rules
judge as that command (`planted`: a deny among them denies the write). A key outside any
section (an edit's fragment without its header) names no setting the guard can tell, so it
is left to the rules on the file itself.
"""

from __future__ import annotations

import re
import shlex

__all__ = ["MAX_SETTINGS", "git_config_settings"]

MAX_SETTINGS = 64
_HEADER = re.compile(r'^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$')
_KEY = re.compile(r"^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$")
_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", '"': '"', "\\": "\\"}


def git_config_settings(text: str) -> list[str]:
    """``git config KEY VALUE`` for each setting ``text`` makes, in order (a key with no
    value is git's ``true``)."""
    found: list[str] = []
    section: str | None = None
    lines = _joined(text.splitlines())
    for raw in lines:
        line = raw.strip()
        header = _HEADER.match(line)
        if header is not None:
            name, sub, rest = header.groups()
            section = f"{name}.{_unescaped(sub)[0]}" if sub is not None else name
            line = rest.strip()
        if not line or line.startswith(("#", ";")):
            continue
        setting = _KEY.match(line)
        if setting is None or section is None:
            continue
        key, value = setting.groups()
        setting_value = _value(value) if value is not None else "true"
        found.append(shlex.join(["git", "config", f"{section}.{key}", setting_value]))
        if len(found) >= MAX_SETTINGS:
            break
    return found


def _joined(lines: list[str]) -> list[str]:
    """The lines with git's continuations (a value ending in ``\\``) joined."""
    out: list[str] = []
    carry = ""
    for line in lines:
        if line.endswith("\\") and not line.endswith("\\\\"):
            carry += line[:-1]
            continue
        out.append(carry + line)
        carry = ""
    if carry:
        out.append(carry)
    return out


def _value(raw: str) -> str:
    """A value as git reads it: quotes removed, escapes read, a comment outside quotes
    dropped, the spaces around it trimmed."""
    value, _ = _unescaped(raw.strip(), comments=True)
    return value.strip()


def _unescaped(raw: str, *, comments: bool = False) -> tuple[str, bool]:
    out: list[str] = []
    quoted = False
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            out.append(_ESCAPES.get(raw[index + 1], raw[index + 1]))
            index += 2
            continue
        if char == '"':
            quoted = not quoted
        elif comments and not quoted and char in "#;":
            break
        else:
            out.append(char)
        index += 1
    return "".join(out), quoted
