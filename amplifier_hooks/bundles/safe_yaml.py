"""Turning bundle YAML into Python data within fixed limits, fast and without surprises.

PyYAML's own loaders trust their input: an alias bomb ("billion laughs") or a chain of
merge keys expands exponentially in whatever walks the result, 5,000 nested brackets
overflow the recursion limit (libyaml's composer recurses in C, with no limit at all), and
a 5,000-digit integer raises a bare `ValueError`. Here the node tree is composed from the
parser's events in a loop, so nesting depth and the size the tree has once its aliases
are expanded are counted as it grows and refused past `LIMITS`. The events come from
libyaml when it is installed (the scanner is most of the cost) and from PyYAML's pure
Python parser otherwise; both keep line numbers in their marks.

Every refusal is a `yaml.MarkedYAMLError` subclass with the mark of the offending node,
so the caller reports all problems the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingStartEvent,
    ScalarEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

__all__ = [
    "LIMITS",
    "USING_LIBYAML",
    "BundleLimits",
    "LimitError",
    "PlacedError",
    "SecondDocument",
    "compose",
    "construct",
    "find_unprintable",
]


@dataclass(frozen=True)
class BundleLimits:
    """How much one bundle file may ask of the machine (documented in docs/bundles.md)."""

    max_file_bytes: int = 1024 * 1024
    """Bytes in one bundle file, Markdown body included."""
    max_depth: int = 64
    """Nesting of mappings and lists."""
    max_nodes: int = 20_000
    """Values in one file once every alias (``*name``, ``<<: *name``) is expanded."""
    max_number_chars: int = 100
    """Characters in one integer literal (bounds the cost of converting it)."""
    max_expanded_chars: int = 1024 * 1024
    """Characters that ``${VAR}`` expansion may add to one file."""
    max_included_files: int = 256
    """Files applied in one composition, counting a file included twice twice."""


LIMITS = BundleLimits()

USING_LIBYAML: bool = bool(getattr(yaml, "__with_libyaml__", False))
"""True when events come from libyaml (much faster on big files)."""

_EventSource: Any = yaml.CSafeLoader if USING_LIBYAML else yaml.SafeLoader


class PlacedError(yaml.MarkedYAMLError):
    """A problem at ``problem_mark``, inside ``key_path`` (known while composing)."""

    def __init__(self, problem: str, mark: Any, key_path: tuple[str | int, ...] = ()) -> None:
        super().__init__(None, None, problem, mark)
        self.key_path = key_path


class LimitError(PlacedError):
    """The file is over one of `LIMITS`."""


class SecondDocument(yaml.MarkedYAMLError):
    """A second YAML document starts at ``problem_mark``: a bundle is one document."""


# What YAML 1.1 allows in a stream (PyYAML's reader checks the same set).
_UNPRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def find_unprintable(text: str) -> tuple[str, int, int] | None:
    """The first character YAML does not allow (a control character, say) with its line
    and column (0-based, counted the way YAML counts them), or None."""
    found = _UNPRINTABLE.search(text)
    if found is None:
        return None
    position = found.start()
    line = 0
    line_start = 0
    for brk in _BREAK.finditer(text, 0, position):
        line += 1
        line_start = brk.end()
    return found.group(), line, position - line_start


_INT_TAG = "tag:yaml.org,2002:int"


@dataclass
class _Open:
    """A mapping or list whose end event has not come yet."""

    node: MappingNode | SequenceNode
    weight: int = 1
    pending_key: Node | None = None


def compose(text: str, limits: BundleLimits = LIMITS) -> Node | None:
    """The node tree of the single YAML document in ``text`` (None when it is empty).

    Raises `yaml.YAMLError`: the parser's own errors, `LimitError`, `SecondDocument`,
    or a `PlacedError` for an undefined or self-containing alias.
    """
    parser = _EventSource(text)
    try:
        return _Composer(parser, limits).document()
    finally:
        parser.dispose()


class _Composer:
    def __init__(self, parser: Any, limits: BundleLimits) -> None:
        self.parser = parser
        self.limits = limits
        self._resolve: Callable[..., str] = Resolver().resolve
        self.anchors: dict[str, Node] = {}
        self.weights: dict[int, int] = {}  # id(node) -> its size with aliases expanded
        self.open: list[_Open] = []
        self.total = 0

    def document(self) -> Node | None:
        self.parser.get_event()  # StreamStartEvent
        if self.parser.check_event(StreamEndEvent):
            return None
        self.parser.get_event()  # DocumentStartEvent
        root: Node | None = None
        try:
            while not self.parser.check_event(DocumentEndEvent):
                done = self._step(self.parser.get_event())
                if done is not None:
                    root = done
        except yaml.MarkedYAMLError as exc:
            raise self._reader_limit(exc) or exc from None
        self.parser.get_event()  # DocumentEndEvent
        if self.parser.check_event(DocumentStartEvent):
            start = self.parser.get_event().start_mark
            raise SecondDocument(None, None, "a second document starts here", start)
        return root

    def _step(self, event: Any) -> Node | None:
        """Handle one event; the root node once it is complete."""
        # libyaml's marks are their own class, with the same line and column.
        start: Any = event.start_mark
        end: Any = event.end_mark
        if isinstance(event, ScalarEvent):
            tag = event.tag
            if tag is None or tag == "!":
                tag = self._resolve(ScalarNode, event.value, event.implicit)
            if tag == _INT_TAG and len(event.value) > self.limits.max_number_chars:
                # int() of a long literal is slow (and refused past 4,300 digits).
                raise LimitError(
                    f"an integer of {len(event.value):,} characters, over the limit of "
                    f"{self.limits.max_number_chars}",
                    start,
                    self._where(),
                )
            node: Node = ScalarNode(tag, event.value, start, end, style=event.style)
            self._anchor(event, node, 1)
            return self._add(node, 1, event)
        if isinstance(event, AliasEvent):
            target = self.anchors.get(event.anchor or "")
            if target is None:
                raise PlacedError(f"found undefined alias {event.anchor!r}", start, self._where())
            weight = self.weights.get(id(target))
            if weight is None:  # its end event has not come: it would contain itself
                raise PlacedError(
                    f"alias {event.anchor!r} refers to a value that contains it",
                    start,
                    self._where(),
                )
            return self._add(target, weight, event)
        if isinstance(event, CollectionStartEvent):
            if len(self.open) >= self.limits.max_depth:
                raise LimitError(
                    f"nested deeper than {self.limits.max_depth} levels, the limit",
                    start,
                    self._where(),
                )
            kind = MappingNode if isinstance(event, MappingStartEvent) else SequenceNode
            tag = event.tag
            if tag is None or tag == "!":
                tag = self._resolve(kind, None, event.implicit)
            collection = kind(tag, [], start, end, flow_style=event.flow_style)
            self._count(1, event)
            if event.anchor is not None:
                # An alias means the latest node of its name (YAML 1.1 allows reuse).
                self.anchors[event.anchor] = collection
            self.open.append(_Open(collection))
            return None
        # MappingEndEvent or SequenceEndEvent
        closed = self.open.pop()
        closed.node.end_mark = end
        self.weights[id(closed.node)] = closed.weight
        return self._attach(closed.node, closed.weight)

    def _anchor(self, event: Any, node: Node, weight: int) -> None:
        if event.anchor is not None:
            self.anchors[event.anchor] = node
            self.weights[id(node)] = weight

    def _count(self, weight: int, event: Any) -> None:
        self.total += weight
        if self.total > self.limits.max_nodes:
            raise LimitError(
                f"the document holds more than {self.limits.max_nodes:,} values, the limit "
                "(each use of an alias counts every value it stands for)",
                event.start_mark,
                self._where(),
            )

    def _reader_limit(self, exc: yaml.MarkedYAMLError) -> LimitError | None:
        """The YAML reader's own nesting limit, said as ours, where it fires first.

        PyYAML 6.0.4 and libyaml stop deep flow collections in the scanner, which reads
        ahead of the events: the open path is then where the deep value starts.
        """
        if "maximum nesting depth" not in str(exc.problem):
            return None
        return LimitError(
            "nested too deeply: the YAML reader's own nesting limit fired before this "
            f"project's limit of {self.limits.max_depth} levels",
            exc.problem_mark,
            self._where(),
        )

    def _where(self) -> tuple[str | int, ...]:
        """The key path of the value being added."""
        path: list[str | int] = []
        for frame in self.open:
            if isinstance(frame.node, SequenceNode):
                path.append(len(frame.node.value))
            elif isinstance(frame.pending_key, ScalarNode):
                path.append(str(frame.pending_key.value))
            elif frame.pending_key is not None:
                path.append("?")
            else:
                break  # at a key: the mapping itself is the place
        return tuple(path)

    def _add(self, node: Node, weight: int, event: Any) -> Node | None:
        self._count(weight, event)
        return self._attach(node, weight)

    def _attach(self, node: Node, weight: int) -> Node | None:
        if not self.open:
            return node
        parent = self.open[-1]
        parent.weight += weight
        if isinstance(parent.node, SequenceNode):
            parent.node.value.append(node)
        elif parent.pending_key is None:
            parent.pending_key = node
        else:
            parent.node.value.append((parent.pending_key, node))
            parent.pending_key = None
        return None


class _Constructor(SafeConstructor):
    """PyYAML's safe constructor, with every failure located at its node.

    Its converters trust what the resolver matched, so an explicit tag on the wrong text
    (``!!int ""``, ``!!timestamp x``) fails with IndexError or AttributeError; a date
    that does not exist with ValueError.
    """

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except Exception as exc:
            tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
            why = f": {exc}" if isinstance(exc, ValueError) and str(exc) else ""
            raise ConstructorError(
                None, None, f"not a valid {tag} value{why}", node.start_mark
            ) from None


def construct(node: Node) -> Any:
    """The Python data of a composed node tree (PyYAML's safe types only)."""
    return _Constructor().construct_document(node)
