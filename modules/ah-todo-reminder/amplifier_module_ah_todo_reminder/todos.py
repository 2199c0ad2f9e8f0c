"""Todo items: reading them tolerantly from a tool's input, and rendering them for the model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

Status = Literal["pending", "in_progress", "completed"]

MARKS: dict[Status, str] = {"pending": "[ ]", "in_progress": "[~]", "completed": "[x]"}

# Todo tools of different agents spell statuses differently; these are the spellings seen
# in practice. Anything else is reported back as a problem rather than guessed at.
_ALIASES: dict[str, Status] = {
    "pending": "pending",
    "todo": "pending",
    "open": "pending",
    "not_started": "pending",
    "in_progress": "in_progress",
    "active": "in_progress",
    "doing": "in_progress",
    "completed": "completed",
    "complete": "completed",
    "done": "completed",
}


class TodoItem(NamedTuple):
    """One entry of the list."""

    content: str
    status: Status

    def as_dict(self) -> dict[str, str]:
        return {"content": self.content, "status": self.status}


def parse_todos(raw: object) -> tuple[list[TodoItem], list[str]]:
    """The valid items of ``raw`` (a tool's ``todos`` value) and a note for each bad one.

    Bad items are skipped, not fatal: one malformed entry from the model must not make the
    whole list disappear from its view.
    """
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise TypeError(f"todos must be a list, got {type(raw).__name__}")
    items: list[TodoItem] = []
    problems: list[str] = []
    for index, entry in enumerate(raw):
        item = _parse_item(entry)
        if isinstance(item, str):
            problems.append(f"item {index}: {item}")
        else:
            items.append(item)
    return items, problems


def _parse_item(entry: Any) -> TodoItem | str:
    if not isinstance(entry, dict):
        return f"expected an object, got {type(entry).__name__}"
    content = entry.get("content")
    if not isinstance(content, str) or not content.strip():
        return "missing or empty 'content'"
    status_raw = entry.get("status", "pending")
    if not isinstance(status_raw, str):
        return f"status must be a string, got {type(status_raw).__name__}"
    status = _ALIASES.get(status_raw.strip().lower().replace("-", "_").replace(" ", "_"))
    if status is None:
        return f"unknown status {status_raw!r} (use pending, in_progress or completed)"
    # One line per item keeps the rendering unambiguous.
    return TodoItem(" ".join(content.split()), status)


def counts(items: Sequence[TodoItem]) -> dict[str, int]:
    """How many items have each status."""
    tally: dict[str, int] = dict.fromkeys(MARKS, 0)
    for item in items:
        tally[item.status] += 1
    return tally


def render(items: Sequence[TodoItem], header: str, max_items: int) -> str:
    """The list as the model sees it: a header with the tally, then one marked line each.

    Past ``max_items`` the rest is summarised, so a runaway list cannot eat the per-turn
    injection budget; unfinished items are shown first when the list is cut.
    """
    tally = counts(items)
    summary = (
        f"{len(items)} item{'' if len(items) == 1 else 's'}: {tally['completed']} completed, "
        f"{tally['in_progress']} in progress, {tally['pending']} pending"
    )
    shown = list(items)
    if len(shown) > max_items:
        order = [n for n, i in enumerate(items) if i.status != "completed"]
        order += [n for n, i in enumerate(items) if i.status == "completed"]
        keep = set(order[:max_items])
        shown = [i for n, i in enumerate(items) if n in keep]
    lines = [f"{header} ({summary})"]
    lines += [f"{MARKS[item.status]} {item.content}" for item in shown]
    if len(shown) < len(items):
        lines.append(f"... and {len(items) - len(shown)} more")
    return "\n".join(lines)
