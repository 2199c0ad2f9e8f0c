"""Codex's hook trust: the hash it computes for a hook, and our record of it.

Codex 0.169 runs a hook from a hooks.json only when ``$CODEX_HOME/config.toml`` holds
``[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"``
equal to the hook's current hash; ``codex exec`` skips any other hook without a word.
The hash is SHA-256 over a canonical JSON of the hook's identity: the event's snake_case
name, the group's matcher (if any) and the one handler with its timeout filled in
(600 when none is given), fields that are not set left out, keys sorted, no spaces.
tests/codex/test_trust.py checks it against ``codex app-server``'s ``hooks/list``.

Our entries live between two marker lines at the end of config.toml, rewritten whole by
every install and removed by uninstall; the rest of the file is never touched, except a
table of the user's for the very key one of our hooks now has (it named a hook that is
no longer there), which is taken out.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BEGIN_MARK",
    "END_MARK",
    "HookTrust",
    "TrustError",
    "event_label",
    "hook_hash",
    "hook_key",
    "trust_states",
    "user_trust_tables",
    "with_trust",
    "without_trust",
]

BEGIN_MARK = "# >>> amplifier-hooks: trust of the hooks `amplifier-hooks codex install` wrote"
END_MARK = "# <<< amplifier-hooks"
DEFAULT_TIMEOUT = 600


class TrustError(ValueError):
    """A config.toml we cannot safely add our trust to (the file and why)."""


@dataclass(frozen=True)
class HookTrust:
    """One hook's trust entry: its key and its hash."""

    key: str
    hash: str


def event_label(event: str) -> str:
    """Codex's snake_case label of an event (``PreToolUse`` -> ``pre_tool_use``)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_key(hooks_file: str, event: str, group: int, handler: int) -> str:
    """The key Codex files a hook's state under (positional, as of 0.169)."""
    return f"{hooks_file}:{event_label(event)}:{group}:{handler}"


def hook_hash(event: str, matcher: str | None, handler: Mapping[str, Any]) -> str:
    """The hash Codex computes for a command ``handler`` of ``event`` in a group with
    ``matcher`` (see the module docstring)."""
    timeout = handler.get("timeout")
    normal: dict[str, Any] = {
        "type": "command",
        "command": handler["command"],
        "timeout": max(1, int(timeout if timeout is not None else DEFAULT_TIMEOUT)),
        "async": bool(handler.get("async", False)),
    }
    if handler.get("statusMessage") is not None:
        normal["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": event_label(event), "hooks": [normal]}
    if matcher is not None and event in _MATCHER_EVENTS:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


_MATCHER_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "PermissionRequest", "SessionStart", "PreCompact"}
)
"""Events whose matcher Codex keeps (for the others it is ignored, and so not hashed)."""


def _block(entries: list[HookTrust]) -> str:
    lines = [BEGIN_MARK]
    for entry in entries:
        lines += [
            f"[hooks.state.{json.dumps(entry.key, ensure_ascii=False)}]",
            f"trusted_hash = {json.dumps(entry.hash)}",
        ]
    lines.append(END_MARK)
    return "\n".join(lines) + "\n"


def user_trust_tables(text: str, entries: list[HookTrust]) -> str:
    """``text`` with ``entries`` added as ordinary tables, outside our block: trust that
    is the user's (Codex writes a hook's trust into the table its key already has, which
    may be one of ours that a hook of the user's has moved onto)."""
    if not entries:
        return text
    tables = "".join(
        f"[hooks.state.{json.dumps(e.key, ensure_ascii=False)}]\ntrusted_hash = "
        f"{json.dumps(e.hash)}\n"
        for e in entries
    )
    return text + ("\n" if text.strip() else "") + tables


def without_trust(text: str) -> str:
    """``text`` (a config.toml) without our marked block."""
    out: list[str] = []
    inside = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped == BEGIN_MARK:
            inside = True
            continue
        if inside:
            if stripped == END_MARK:
                inside = False
            continue
        out.append(line)
    return "".join(out).rstrip("\n") + ("\n" if out else "")


def _drop_table(text: str, key: str) -> str:
    """``text`` without the user's own ``[hooks.state."key"]`` table (header to the next
    header), when it is written that way."""
    header = re.compile(
        r"^\s*\[\s*hooks\s*\.\s*state\s*\.\s*" + re.escape(json.dumps(key)) + r"\s*\]\s*$"
    )
    out: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        if header.match(line):
            skipping = True
            continue
        if skipping and line.lstrip().startswith("["):
            skipping = False
        if not skipping:
            out.append(line)
    return "".join(out)


def _parse(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TrustError(f"{where}: not valid TOML: {exc}") from None


def trust_states(text: str, where: str = "config.toml") -> dict[str, str]:
    """The ``trusted_hash`` of every hook state in a config.toml's text, by key."""
    states = _parse(text, where).get("hooks", {})
    states = states.get("state", {}) if isinstance(states, dict) else {}
    if not isinstance(states, dict):
        return {}
    return {
        key: value["trusted_hash"]
        for key, value in states.items()
        if isinstance(value, dict) and isinstance(value.get("trusted_hash"), str)
    }


def with_trust(text: str, entries: list[HookTrust], where: str = "config.toml") -> str:
    """``text`` with our block holding exactly ``entries``; `TrustError` when the result
    would not be valid TOML or would not say what we mean (a ``hooks.state`` the file
    defines in a way we cannot add to)."""
    base = without_trust(text)
    _parse(base, where)
    for entry in entries:
        base = _drop_table(base, entry.key)
    result = base if not entries else (base + ("\n" if base.strip() else "") + _block(entries))
    try:
        states = trust_states(result, where)
    except TrustError as exc:
        raise TrustError(
            f"{exc} (after adding amplifier-hooks' trust: does the file define hooks.state "
            'inline? move it to [hooks.state."…"] tables)'
        ) from None
    wrong = [e.key for e in entries if states.get(e.key) != e.hash]
    if wrong:
        raise TrustError(f"{where}: cannot record the trust of {', '.join(wrong)}")
    return result
