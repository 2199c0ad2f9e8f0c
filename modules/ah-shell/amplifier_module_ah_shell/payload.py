"""What a hook command receives: the event as JSON on stdin, and a few environment variables.

Field names follow Claude Code's hook input (``hook_event_name``, ``tool_name``,
``tool_input``, ``tool_response``, ``session_id``, ``cwd``, ``prompt``), so a script written
for that CLI reads the same keys here. The full event data is under ``data`` as well.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Literal

CLAUDE_EVENT_NAMES: dict[str, str] = {
    "tool:pre": "PreToolUse",
    "tool:post": "PostToolUse",
    "tool:error": "PostToolUseFailure",
    "prompt:submit": "UserPromptSubmit",
    "session:start": "SessionStart",
    "session:end": "SessionEnd",
    "context:compaction": "PreCompact",
}
"""Amplifier events with a Claude Code counterpart of the same meaning. Other events are
sent under their own name."""

# (our key in the event data, the key the script sees)
_COPIED = (
    ("tool_name", "tool_name"),
    ("tool_input", "tool_input"),
    ("tool_result", "tool_response"),
    ("prompt", "prompt"),
    ("transcript_path", "transcript_path"),
    ("tool_use_id", "tool_use_id"),
)


def build_payload(
    event: str,
    data: Mapping[str, Any],
    *,
    session_id: str | None,
    cwd: str,
    event_names: Literal["claude", "amplifier"],
) -> dict[str, Any]:
    """The JSON object sent on the command's stdin (before serialization)."""
    name = CLAUDE_EVENT_NAMES.get(event, event) if event_names == "claude" else event
    payload: dict[str, Any] = {
        "hook_event_name": name,
        "amplifier_event": event,
        "session_id": session_id,
        "cwd": cwd,
    }
    for ours, theirs in _COPIED:
        if ours in data:
            payload[theirs] = data[ours]
    payload["data"] = dict(data)
    return payload


def encode_payload(payload: Mapping[str, Any]) -> bytes:
    """Serialize for stdin. Never fails: values JSON cannot hold become their ``repr``, so a
    tool result holding an arbitrary object does not stop the hook from running."""
    return json.dumps(jsonable(payload), ensure_ascii=False).encode("utf-8")


def jsonable(value: Any, _depth: int = 0) -> Any:
    """``value`` with everything JSON cannot represent replaced by a string."""
    if _depth > 50:  # a self-referencing structure; stop rather than recurse forever
        return "<too deeply nested>"
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, _depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v, _depth + 1) for v in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return jsonable(dump(mode="json"), _depth + 1)
        except Exception:
            pass
    return repr(value)


def build_env(
    base: Mapping[str, str],
    extra: Mapping[str, str],
    *,
    event: str,
    handler: str,
    cwd: str,
    session_id: str | None,
    tool_name: object,
) -> dict[str, str]:
    """The command's environment: ``base`` (the agent's), configured ``extra``, then the
    hook's own variables. ``CLAUDE_PROJECT_DIR`` is set too (unless configured) because
    Claude Code scripts locate their files with it."""
    env = {**base, **extra}
    env["AMPLIFIER_HOOK_EVENT"] = event
    env["AMPLIFIER_HOOK_NAME"] = handler
    env["AMPLIFIER_PROJECT_DIR"] = cwd
    if "CLAUDE_PROJECT_DIR" not in extra:
        env["CLAUDE_PROJECT_DIR"] = cwd
    if session_id:
        env["AMPLIFIER_SESSION_ID"] = session_id
    if isinstance(tool_name, str):
        env["AMPLIFIER_TOOL_NAME"] = tool_name
    return env
