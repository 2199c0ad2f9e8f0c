"""Our plugin in the text of ``openclaw.json``: inserted, and taken out again, by offsets.

Install inserts text and remembers each insertion (`Edit`) and which of our parts it added
(`PARTS`): undone in reverse order, the file is byte for byte what install found. When the
user changed the file in between, uninstall finds the parts install added by what they are
instead (`take_out`): our entry under ``plugins.entries`` (only one that is ours, by its
content), our folder in ``plugins.load.paths``, our id in ``plugins.allow``, and the
containers install made, if they are empty now. A part the person had written before
install is not install's, so it stays; an entry of theirs under our id is `Taken`.
Everything else is left as the user wrote it, comments included
(`amplifier_hooks.hosts.openclaw.json5`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from amplifier_hooks.hosts.openclaw.json5 import Json5Error, Member, Node, parse

__all__ = ["PARTS", "Edit", "Placed", "Taken", "place", "read_tree", "take_out", "undo"]

EMPTY = "{\n}\n"
"""What a missing file counts as: install starts from it, and a file that comes back to
it after uninstall was install's own (it is removed)."""

PARTS = ("paths", "entry", "allow")
"""Our parts of the file: the folder in ``plugins.load.paths``, ``plugins.entries.<id>``,
the id in ``plugins.allow``."""


class Taken(ValueError):
    """``plugins.entries.<id>`` is already there, and not as install writes it."""


@dataclass(frozen=True)
class Edit:
    """Text inserted at an offset."""

    at: int
    text: str


@dataclass(frozen=True)
class Placed:
    """The text with our plugin in it, the insertions that made it, the containers (as
    key paths) that did not exist before, and which of `PARTS` install added (a folder or
    an id the person had written already is theirs)."""

    text: str
    edits: tuple[Edit, ...]
    created: tuple[tuple[str, ...], ...]
    added: tuple[str, ...]


def read_tree(text: str) -> Node:
    """The file's JSON5 tree; `Json5Error` if it is not JSON5 or not an object."""
    tree = parse(text)
    if tree.kind != "object":
        raise Json5Error("the file is not a JSON5 object")
    return tree


def _line_indent(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    line = text[start:at]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _unit(text: str, tree: Node) -> str:
    """The file's indentation step (two spaces when it has none to copy)."""
    if tree.members and "\n" in text[tree.start : tree.members[0].start]:
        return _line_indent(text, tree.members[0].start) or "  "
    return "  "


def _dump(value: Any, indent: str | None, unit: str) -> str:
    if indent is None:
        return json.dumps(value, ensure_ascii=False)
    lines = json.dumps(value, indent=len(unit), ensure_ascii=False).split("\n")
    return ("\n" + indent).join(lines)


def _multiline(text: str, node: Node) -> bool:
    first = node.members[0].start if node.members else node.items[0].start if node.items else None
    inner = text[node.start : first if first is not None else node.end]
    return "\n" in inner


def _member_edit(text: str, tree: Node, node: Node, key: str, value: Any) -> Edit:
    """Insert ``"key": value`` as the last member of the object ``node``."""
    unit = _unit(text, tree)
    pretty = "\n" in text[tree.start : tree.end]
    if node.members:
        last = node.members[-1]
        if _multiline(text, node):
            indent = _line_indent(text, last.start)
            member = f"{json.dumps(key)}: {_dump(value, indent, unit)}"
            return Edit(last.value.end, f",\n{indent}{member}")
        member = f"{json.dumps(key)}: {_dump(value, None, unit)}"
        return Edit(last.value.end, f", {member}")
    if not pretty:
        return Edit(node.start + 1, f"{json.dumps(key)}: {_dump(value, None, unit)}")
    outer = _line_indent(text, node.start)
    indent = outer + unit
    member = f"{json.dumps(key)}: {_dump(value, indent, unit)}"
    closing = "" if text[node.start + 1 : node.end - 1].endswith("\n" + outer) else "\n" + outer
    return Edit(node.start + 1, f"\n{indent}{member}{closing}")


def _item_edit(text: str, node: Node, value: Any) -> Edit:
    """Append ``value`` to the array ``node``."""
    if not node.items:
        return Edit(node.start + 1, json.dumps(value, ensure_ascii=False))
    last = node.items[-1]
    if _multiline(text, node):
        return Edit(last.end, f",\n{_line_indent(text, last.start)}{json.dumps(value)}")
    return Edit(last.end, f", {json.dumps(value, ensure_ascii=False)}")


def _apply(text: str, edit: Edit) -> str:
    return text[: edit.at] + edit.text + text[edit.at :]


def _object_at(tree: Node, keys: Sequence[str]) -> Node | None:
    node: Node | None = tree
    for key in keys:
        if node is None or node.kind != "object":
            return None
        node = node.get(key)
    return node


def place(text: str, plugin_id: str, folder: str, entry: dict[str, Any]) -> Placed:
    """``text`` with our plugin wired: ``folder`` in ``plugins.load.paths``, ``entry`` as
    ``plugins.entries.<plugin_id>``, ``plugin_id`` in ``plugins.allow`` if the user keeps
    such a list. `Json5Error` when the file (or a part we must go into) is not what
    OpenClaw reads; `Taken` when ``text`` (the file without ours) has an entry under
    ``plugin_id``: the person's, which install neither replaces nor merges into."""
    edits: list[Edit] = []
    created: list[tuple[str, ...]] = []
    added: list[str] = []
    wanted: list[tuple[str, tuple[str, ...], str, Any]] = [
        ("paths", ("plugins", "load", "paths"), "item", folder),
        ("entry", ("plugins", "entries", plugin_id), "member", entry),
        ("allow", ("plugins", "allow"), "allowed", plugin_id),
    ]
    for part, path, how, value in wanted:
        tree = read_tree(text)
        edit: Edit | None
        if how == "allowed":
            allow = _object_at(tree, path)
            if allow is None:
                continue  # no allow list: every plugin found may load
            if allow.kind != "array":
                raise Json5Error("plugins.allow is not a list")
            if value in allow.value:
                continue
            edit = _item_edit(text, allow, value)
        else:
            edit, made = _insert_path(text, tree, path, how, value)
            created += made
        if edit is None:
            continue
        edits.append(edit)
        added.append(part)
        text = _apply(text, edit)
    return Placed(text, tuple(edits), tuple(created), tuple(added))


def _insert_path(
    text: str, tree: Node, path: tuple[str, ...], how: str, value: Any
) -> tuple[Edit | None, list[tuple[str, ...]]]:
    """The edit that puts ``value`` at ``path`` (making the missing containers), and the
    containers it makes."""
    node = tree
    for depth, key in enumerate(path[:-1]):
        child = node.get(key)
        if child is None:
            rest = path[depth + 1 :]
            nested: Any = [value] if how == "item" else value
            for name in reversed(rest):
                nested = {name: nested}
            made = [path[: depth + 1 + n] for n in range(len(rest) + (how == "item"))]
            return _member_edit(text, tree, node, key, nested), made
        if child.kind != "object":
            raise Json5Error(f"{'.'.join(path[: depth + 1])} is not an object")
        node = child
    last = path[-1]
    target = node.get(last)
    if how == "member":
        if target is not None:
            raise Taken(f"{'.'.join(path)} is already there")
        return _member_edit(text, tree, node, last, value), []
    if target is None:
        return _member_edit(text, tree, node, last, [value]), [path]
    if target.kind != "array":
        raise Json5Error(f"{'.'.join(path)} is not a list")
    if value in target.value:
        return None, []
    return _item_edit(text, target, value), []


def undo(text: str, edits: Sequence[Edit]) -> str | None:
    """``text`` without ``edits`` (undone last first), or None if they are not in it
    where install put them."""
    for edit in reversed(edits):
        if text[edit.at : edit.at + len(edit.text)] != edit.text:
            return None
        text = text[: edit.at] + text[edit.at + len(edit.text) :]
    return text


def _cut(text: str, start: int, end: int) -> str:
    return text[:start] + text[end:]


def _without_member(text: str, node: Node, member: Member) -> str:
    index = node.members.index(member)
    if index > 0:
        return _cut(text, node.members[index - 1].value.end, member.value.end)
    if len(node.members) > 1:
        return _cut(text, member.start, node.members[1].start)
    return _cut(text, node.start + 1, node.end - 1)


def _without_item(text: str, node: Node, index: int) -> str:
    item = node.items[index]
    if index > 0:
        return _cut(text, node.items[index - 1].end, item.end)
    if len(node.items) > 1:
        return _cut(text, item.start, node.items[1].start)
    return _cut(text, node.start + 1, node.end - 1)


def take_out(
    text: str,
    plugin_id: str,
    folder: str,
    created: Sequence[Sequence[str]] = (),
    parts: Collection[str] = PARTS,
    ours: Callable[[Any], bool] = lambda entry: True,
) -> str:
    """``text`` without those of our ``parts`` that install added, found by what they are
    (the entry only where ``ours`` says the value under ``plugin_id`` is install's); the
    ``created`` containers go too where nothing else is left in them."""
    while True:
        tree = read_tree(text)
        changed = _take_one(text, tree, plugin_id, folder, parts, ours, created)
        if changed is None:
            return text
        text = changed


def _take_one(
    text: str,
    tree: Node,
    plugin_id: str,
    folder: str,
    parts: Collection[str],
    ours: Callable[[Any], bool],
    created: Sequence[Sequence[str]],
) -> str | None:
    """``text`` with one of our parts removed, or None when none is left."""
    entries = _object_at(tree, ("plugins", "entries"))
    if "entry" in parts and entries is not None and entries.kind == "object":
        for member in entries.members:
            if member.key == plugin_id and ours(member.value.value):
                return _without_member(text, entries, member)
    items = (
        ("paths", ("plugins", "load", "paths"), folder),
        ("allow", ("plugins", "allow"), plugin_id),
    )
    for part, where, value in items:
        found = _object_at(tree, where)
        if part in parts and found is not None and found.kind == "array" and value in found.value:
            return _without_item(text, found, found.value.index(value))
    for made in sorted(created, key=len, reverse=True):
        parent = _object_at(tree, made[:-1])
        node = _object_at(tree, made)
        if parent is None or node is None or parent.kind != "object":
            continue
        if not (node.members or node.items) and node.kind != "scalar":
            member = next(m for m in reversed(parent.members) if m.key == made[-1])
            return _without_member(text, parent, member)
    return None
