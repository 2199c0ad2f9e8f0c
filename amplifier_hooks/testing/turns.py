"""What a scripted model says, in one vocabulary for every model API stand-in.

A `Turn` is one answer of the model: text, tool calls with JSON arguments (`ToolUse`) and,
for the OpenAI Responses API, free-form tool calls (`CustomToolCall`, e.g. Codex's
``apply_patch``). Each stand-in (`messages_api`, `responses_api`, `gemini_api`,
`chat_completions`) writes the same turn in its own API's shape, so a test reads the same
whichever agent it drives.

`load_script` reads the JSON form the stand-ins' command-line entries take::

    {"turns": [["Let me look.", {"tool": "exec_command", "arguments": {"cmd": "ls"}}],
               ["Done."]],
     "then": ["Done."], "side_answer": "OK"}

A turn is a list of items (a bare string is a one-text turn); an item is a string (text),
``{"text": ...}``, ``{"tool": NAME, "arguments": {...}}`` or ``{"tool": NAME, "input":
"..."}`` (free-form). A bare list is the turns alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CustomToolCall", "Script", "Text", "ToolUse", "Turn", "load_script"]


@dataclass(frozen=True)
class Text:
    """A text block the model says."""

    text: str


@dataclass(frozen=True)
class ToolUse:
    """A tool call with JSON arguments; ``id`` is generated when not given."""

    name: str
    input: Mapping[str, Any]
    id: str | None = None


@dataclass(frozen=True)
class CustomToolCall:
    """A free-form tool call (the Responses API's ``custom_tool_call``): its input is raw
    text, not JSON -- Codex's ``apply_patch`` takes the patch this way."""

    name: str
    input: str
    id: str | None = None


Block = Text | ToolUse | CustomToolCall


@dataclass(frozen=True)
class Turn:
    """One answer of the model: its blocks, in order. A turn with a tool call asks the
    agent to run it and ask again; a turn of text alone ends the agent's turn."""

    blocks: tuple[Block, ...]

    def __init__(self, *blocks: Block | str) -> None:
        made = tuple(Text(b) if isinstance(b, str) else b for b in blocks)
        object.__setattr__(self, "blocks", made)

    @property
    def calls_tools(self) -> bool:
        return any(not isinstance(b, Text) for b in self.blocks)

    @property
    def stop_reason(self) -> str:
        """The Messages API's name for how the turn ends."""
        return "tool_use" if self.calls_tools else "end_turn"


@dataclass(frozen=True)
class Script:
    """A stand-in's script as read from a file: the keyword arguments it takes."""

    turns: tuple[Turn, ...]
    then: Turn | None = None
    side_answer: str | None = None


def load_script(path: Path | str) -> Script:
    """The script in a JSON file (the format in this module's docstring); `ValueError`
    saying where it is wrong."""
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read the script {path}: {exc}") from None
    if isinstance(value, list):
        value = {"turns": value}
    if not isinstance(value, dict) or not isinstance(value.get("turns"), list):
        raise ValueError(f"{path}: a script is a list of turns or an object with 'turns'")
    unknown = set(value) - {"turns", "then", "side_answer"}
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)}")
    side = value.get("side_answer")
    if side is not None and not isinstance(side, str):
        raise ValueError(f"{path}: side_answer must be a string")
    turns = tuple(_turn(t, f"{path}: turn {i + 1}") for i, t in enumerate(value["turns"]))
    then = _turn(value["then"], f"{path}: then") if value.get("then") is not None else None
    return Script(turns, then, side)


def _turn(value: Any, where: str) -> Turn:
    items = [value] if isinstance(value, str | dict) else value
    if not isinstance(items, list) or not items:
        raise ValueError(f"{where}: a turn is a non-empty list of items")
    return Turn(*(_block(item, f"{where}, item {i + 1}") for i, item in enumerate(items)))


def _block(item: Any, where: str) -> Block:
    if isinstance(item, str):
        return Text(item)
    if isinstance(item, dict) and set(item) == {"text"} and isinstance(item["text"], str):
        return Text(item["text"])
    if isinstance(item, dict) and isinstance(item.get("tool"), str):
        extra = set(item) - {"tool", "arguments", "input", "id"}
        call_id = item.get("id")
        if not extra and (call_id is None or isinstance(call_id, str)):
            if isinstance(item.get("arguments"), dict) and "input" not in item:
                return ToolUse(item["tool"], item["arguments"], call_id)
            if isinstance(item.get("input"), str) and "arguments" not in item:
                return CustomToolCall(item["tool"], item["input"], call_id)
    raise ValueError(
        f"{where}: expected a string, {{'text': ...}}, {{'tool': NAME, 'arguments': {{...}}}}"
        f" or {{'tool': NAME, 'input': '...'}}; got {json.dumps(item)[:200]}"
    )
