"""From a Cline hook input to a `HostCall`.

Cline 3.0.65 names the event only by the file it runs (``PreToolUse.sh``); its input says
``hookName`` (``tool_call``, ``tool_result``, ``agent_start``, ``agent_end`` …) and
carries a camelCase object named after the event (``preToolUse``, ``postToolUse``,
``taskStart``, ``taskComplete``…). Our installed hook passes the event (``--event
PreToolUse``), which reaches us as ``hook_event_name``; without it the event object
names it.

Handlers see the input as Cline sent it, plus the names every host shares:
``session_id`` (``taskId``), ``workspace`` (the first of ``workspaceRoots``),
``tool_name`` (ours) and ``tool_input`` (``tool_call.input``, or ``tool_result.input``
after the call: the real values, where ``preToolUse.parameters`` has them as text) with
the fields derived for a tool (`amplifier_hooks.hosts.cline.CLINE_TOOLS`),
``tool_call_id``, ``result``/``tool_result`` (``tool_result.output``); and ``host``:
``{"name", "event", "tool_name", "payload"}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.hosts import reading
from amplifier_hooks.hosts.base import HostCall, HostInputError
from amplifier_hooks.hosts.dialect import Dialect

__all__ = ["EVENT_FIELD", "EVENT_OBJECTS", "parse_cline_call"]

EVENT_FIELD = "hook_event_name"

EVENT_OBJECTS = {
    "taskStart": "TaskStart",
    "taskResume": "TaskResume",
    "taskCancel": "TaskCancel",
    "taskComplete": "TaskComplete",
    "taskError": "TaskError",
    "preToolUse": "PreToolUse",
    "postToolUse": "PostToolUse",
    "userPromptSubmit": "UserPromptSubmit",
    "sessionShutdown": "SessionShutdown",
}
"""The object each event's input carries -> the event (the name of its hook file)."""

_EVENT_NAME = re.compile(r"^[A-Z][A-Za-z0-9]{0,63}$")


def _event(payload: Mapping[str, Any]) -> str:
    if EVENT_FIELD in payload:
        event = reading.text_field(payload, EVENT_FIELD)
    else:
        named = [name for key, name in EVENT_OBJECTS.items() if key in payload]
        if len(named) != 1:
            raise HostInputError(
                "hook input names no event: install the hook with `amplifier-hooks cline "
                "install`, whose command passes --event"
            )
        event = named[0]
    if _EVENT_NAME.fullmatch(event) is None:
        raise HostInputError(f"not a Cline event name: {event[:80]!r}")
    return event


def _workspace(payload: Mapping[str, Any]) -> str | None:
    roots = payload.get("workspaceRoots")
    if roots is None:
        return None
    if not isinstance(roots, list) or not all(isinstance(r, str) for r in roots):
        raise HostInputError(
            f"hook input field 'workspaceRoots' must be a list of paths, got {reading.kind(roots)}"
        )
    return roots[0] if roots else None


def _call(payload: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    call = payload.get(key)
    if not isinstance(call, Mapping):
        got = "missing" if key not in payload else reading.kind(call)
        raise HostInputError(f"hook input field {key!r} must be an object, got {got}")
    tool_input = call.get("input", {})
    if not isinstance(tool_input, Mapping):
        raise HostInputError(f"hook input field '{key}.input' must be an object")
    reading.text_field(call, "name")
    return call


def parse_cline_call(dialect: Dialect, payload: object) -> HostCall:
    """The `HostCall` in ``payload``; `HostInputError` saying what is wrong."""
    payload = reading.json_object(payload)
    host_event = _event(payload)
    session_id = reading.text_field(payload, "taskId")
    workspace = _workspace(payload)
    original = {k: v for k, v in payload.items() if k != EVENT_FIELD}
    data, host = reading.call_data(dialect, host_event, original, session_id, workspace)
    if dialect.is_tool_event(host_event):
        call = _call(payload, "tool_call" if host_event == "PreToolUse" else "tool_result")
        tool = str(call["name"])
        reading.add_tool(dialect, data, host, tool, call.get("input", {}))
        if isinstance(call.get("id"), str):
            data["tool_call_id"] = call["id"]
        if "output" in call:
            data["result"] = data["tool_result"] = call["output"]
    return reading.host_call(dialect, host_event, payload, data, host, session_id, workspace)
