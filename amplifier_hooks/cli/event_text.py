"""Event data in one line, safe to print: what an event is about and what hooks changed.

`summarize` names the tool and its command or path, the prompt, the model; `diff` lists
the fields a modify changed, each with a short view of the new value around the change.
Both are cut to a width and have control characters made visible (`clean_text`): what
they show came from a trace or a hook, and must not drive the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.cli.steps import Change
from amplifier_hooks.cli.words import plural

__all__ = ["CHANGE_LIMIT", "SUMMARY_LIMIT", "diff", "summarize"]

_SUMMARY_KEYS = {
    "prompt:submit": "prompt",
    "session:start": "session_id",
    "session:resume": "session_id",
    "provider:request": "model",
    "provider:response": "model",
    "prompt:complete": "response",
    "session:end": "session_id",
}
_INPUT_KEYS = ("command", "pattern", "query", "path", "file_path", "url")
SUMMARY_LIMIT = 160
"""Characters of an event's one-line summary: views cut it further to their width, so a
wide terminal shows a long command whole."""
CHANGE_LIMIT = 6
"""Changed fields listed per event at most (a redaction can touch many messages)."""


def summarize(event: str, data: Mapping[str, Any], limit: int = SUMMARY_LIMIT) -> str:
    """A short, safe description of an event: the tool and its command or path, the
    prompt, the model…"""
    text = ""
    if "tool_name" in data:
        tool = str(data.get("tool_name"))
        tool_input = data.get("tool_input")
        detail = ""
        if isinstance(tool_input, Mapping):
            detail = next((str(tool_input[k]) for k in _INPUT_KEYS if k in tool_input), "")
            if not detail and isinstance(tool_input.get("todos"), list):
                detail = plural(len(tool_input["todos"]), "item")
        text = f"{tool}: {detail}" if detail else tool
    elif event in _SUMMARY_KEYS and data.get(_SUMMARY_KEYS[event]) is not None:
        text = str(data[_SUMMARY_KEYS[event]])
        if isinstance(data.get("messages"), list):
            text += f" ({plural(len(data['messages']), 'message')})"
    return clean_text(text, limit, middle=True)  # a command or path: keep its end


_SESSION_KEYS = frozenset({"session_id", "parent_id"})


def diff(before: Any, after: Any, path: str = "") -> list[Change]:
    """The fields that differ between ``before`` and ``after`` (the registry's
    ``timestamp`` and the session identity it stamps aside), each with a short view of
    the new value around the change."""
    changes: list[Change] = []
    _diff(before, after, path, changes)
    return changes


def _diff(before: Any, after: Any, path: str, out: list[Change]) -> None:
    if len(out) >= CHANGE_LIMIT or before == after:
        return
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key in after:
            if not path and (key == "timestamp" or (key in _SESSION_KEYS and key not in before)):
                continue  # stamped by the registry, not changed by a hook
            sub = f"{path}.{key}" if path else str(key)
            if key not in before:
                out.append(Change(sub, _short(after[key])))
            else:
                _diff(before[key], after[key], sub, out)
        for key in before:
            if key not in after and len(out) < CHANGE_LIMIT:
                out.append(Change(f"{path}.{key}" if path else str(key), "(removed)"))
        return
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for position, (old, new) in enumerate(zip(before, after, strict=True)):
            _diff(old, new, f"{path}[{position}]", out)
        return
    if isinstance(before, str) and isinstance(after, str):
        out.append(Change(path, _around_change(before, after)))
        return
    out.append(Change(path, _short(after)))


def _short(value: Any, limit: int = 80) -> str:
    text = _joined(value if isinstance(value, str) else repr(value))
    return clean_text(text, limit, middle=True)  # a path or command keeps its end


def _joined(text: str) -> str:
    """``text`` with its line breaks as " / ": a value is shown on one line, and an
    escaped ``\\x0a`` there reads as noise."""
    return " / ".join(text.splitlines()) if "\n" in text or "\r" in text else text


def _around_change(before: str, after: str, width: int = 80) -> str:
    """``after`` cut to ``width`` characters around where it first differs from
    ``before``, so a redaction marker deep in a long message is what shows."""
    start = next(
        (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
        min(len(before), len(after)),
    )
    begin = max(0, start - width // 3)
    piece = after[begin : begin + width]
    prefix = "…" if begin else ""
    suffix = "…" if begin + width < len(after) else ""
    return prefix + clean_text(_joined(piece), None) + suffix
