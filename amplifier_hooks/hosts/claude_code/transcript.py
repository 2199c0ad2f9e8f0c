"""A Claude Code transcript (``~/.claude/projects/<project>/<session>.jsonl``) as events.

"What would this bundle have blocked yesterday?": the session's prompts and tool calls
become the events Claude Code's hooks would have sent, translated exactly as live calls
are (`parse_call`), so a replay sees the same data a live hook sees. From the lines
(agent-cli-hooks.md §1.11): the first line with a ``sessionId`` starts the session; a
``user`` line with text is a prompt (the one before it completes); an ``assistant``
line's ``tool_use`` blocks are tool calls; a ``user`` line's ``tool_result`` blocks are
their results (``toolUseResult`` is the structured ``tool_response``; ``is_error``
makes a failure); a compact summary is a compaction. Sidechain (subagent) and meta lines,
and the other line types (``summary``, ``file-history-snapshot``...), are left out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from amplifier_hooks.hosts.base import HostInputError
from amplifier_hooks.hosts.claude_code.mapping import parse_call
from amplifier_hooks.hosts.dialect import CLAUDE_CODE_DIALECT

__all__ = ["TranscriptEvent", "TranscriptReader", "looks_like_transcript"]

_LINE_TYPES = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "progress",
        "attachment",
        "file-history-snapshot",
        "queue-operation",
        "ai-title",
        "tag",
    }
)


def looks_like_transcript(first: Mapping[str, Any]) -> bool:
    """Whether a JSONL file whose first record is ``first`` is a Claude Code transcript
    (our traces have ``event``; transcript lines have ``type`` and no ``event``)."""
    return "event" not in first and first.get("type") in _LINE_TYPES


@dataclass(frozen=True)
class TranscriptEvent:
    """One event read from a transcript, with the line it came from (1-based)."""

    line: int
    event: str
    data: dict[str, Any]


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


@dataclass
class TranscriptReader:
    """Turns transcript records, in order, into events (`feed`, then `finish`)."""

    path: str = ""
    session_id: str | None = None
    cwd: str | None = None
    events: list[TranscriptEvent] = field(default_factory=list)
    _tools: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    _prompted: bool = False
    _last_text: str = ""
    _line: int = 0

    def feed(self, line: int, record: object) -> None:
        """Read one record; `ValueError` saying what is wrong with it."""
        self._line = line
        if not isinstance(record, dict):
            raise ValueError("a transcript line must be a JSON object")
        kind = record.get("type")
        if kind not in ("user", "assistant") or record.get("isSidechain") or record.get("isMeta"):
            return
        if self.session_id is None:
            sid = record.get("sessionId")
            if not isinstance(sid, str) or not sid:
                raise ValueError("the first conversation line has no 'sessionId'")
            self.session_id = sid
            cwd = record.get("cwd")
            self.cwd = cwd if isinstance(cwd, str) else None
            self._emit("SessionStart", source="startup")
        message = record.get("message")
        if not isinstance(message, dict):
            raise ValueError(f"a {kind!r} line needs a 'message' object")
        content = message.get("content")
        if kind == "assistant":
            self._assistant(content)
        elif record.get("isCompactSummary"):
            self._emit("PreCompact", trigger="auto", custom_instructions="")
        else:
            self._user(content, record.get("toolUseResult"))

    def _assistant(self, content: object) -> None:
        blocks = content if isinstance(content, list) else []
        text = _text_of(content)
        if text:
            self._last_text = text
        for block in blocks:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            name, tool_id, tool_input = block.get("name"), block.get("id"), block.get("input")
            if not isinstance(name, str) or not isinstance(tool_id, str):
                raise ValueError("a 'tool_use' block needs a 'name' and an 'id'")
            tool_input = tool_input if isinstance(tool_input, dict) else {}
            self._tools[tool_id] = (name, tool_input)
            self._emit("PreToolUse", tool_name=name, tool_input=tool_input, tool_use_id=tool_id)

    def _user(self, content: object, structured: object) -> None:
        results = [
            b
            for b in (content if isinstance(content, list) else [])
            if isinstance(b, dict) and b.get("type") == "tool_result"
        ]
        if not results:
            prompt = _text_of(content)
            if prompt:
                self._complete()
                self._prompted = True
                self._emit("UserPromptSubmit", prompt=prompt)
            return
        for block in results:
            tool_id = block.get("tool_use_id")
            name, tool_input = (
                self._tools.get(tool_id, ("unknown", {}))
                if isinstance(tool_id, str)
                else ("unknown", {})
            )
            common = {"tool_name": name, "tool_input": tool_input, "tool_use_id": tool_id}
            if block.get("is_error"):
                self._emit("PostToolUseFailure", error=_text_of(block.get("content")), **common)
            else:
                response = structured if structured is not None else block.get("content")
                self._emit("PostToolUse", tool_response=response, **common)

    def _complete(self) -> None:
        if self._prompted:
            self._emit("Stop", stop_hook_active=False, last_assistant_message=self._last_text)
            self._last_text = ""

    def _emit(self, host_event: str, **fields: Any) -> None:
        payload: dict[str, Any] = {
            "session_id": self.session_id,
            "transcript_path": self.path,
            "hook_event_name": host_event,
            **fields,
        }
        if self.cwd:
            payload["cwd"] = self.cwd
        try:
            call = parse_call(CLAUDE_CODE_DIALECT, payload)
        except HostInputError as exc:
            raise ValueError(str(exc)) from None
        self.events.append(TranscriptEvent(self._line, call.event, call.data))

    def finish(self) -> list[TranscriptEvent]:
        """The events, with the last prompt completed and the session ended."""
        if self.session_id is not None:
            self._complete()
            self._emit("SessionEnd", reason="other")
        return self.events


def decode(text: str) -> object:
    """One transcript line's JSON; `ValueError` saying what is wrong."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
