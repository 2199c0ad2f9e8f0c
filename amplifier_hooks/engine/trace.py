"""An emit's trace: one `TraceEntry` per handler that ran, made when first read.

Most handlers return None, and their entry would cost more to build than the rest of
their call (a NamedTuple is a tuple subclass: another allocation, tracked by the garbage
collector). Most resolutions are never asked for their trace. So the emit records only
what each call did (its duration, and its action if not a continue), and a `Trace` turns
those into entries, with the handler's name and priority, the first time anyone reads it.
To its readers it is a read-only sequence of `TraceEntry`; in a pydantic model it
validates from, and serializes to, a list of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal, NamedTuple, Protocol, TypeAlias, overload

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from amplifier_hooks.engine.result import Action

__all__ = ["FailureKind", "Ran", "Trace", "TraceEntry", "TraceItem", "recorded"]

FailureKind = Literal["raised", "timeout", "invalid_return", "cancelled", "exit"]


class TraceEntry(NamedTuple):
    """One handler's part in a resolution: what it did and how long it took (seconds)."""

    handler: str
    priority: int
    action: Action
    failure: FailureKind | None
    duration: float
    error: str | None = None


TraceItem: TypeAlias = TraceEntry | tuple[Action, float] | float
"""What an emit records per handler: a whole entry, or less (see `recorded`)."""


class Ran(Protocol):
    """What a trace needs to know of a handler that ran (a registry's handler entry)."""

    @property
    def name(self) -> str: ...

    @property
    def priority(self) -> int: ...


_object_new = object.__new__


class Trace(Sequence[TraceEntry]):
    """The trace of one emit: an entry per handler that ran, in the order they ran."""

    __slots__ = ("_items", "_handlers")

    def __init__(self, entries: Iterable[TraceEntry] = ()) -> None:
        self._items: list[Any] = list(entries)
        self._handlers: Sequence[Ran] | None = None

    def _entries(self) -> list[TraceEntry]:
        handlers = self._handlers
        if handlers is not None:
            entries: list[TraceEntry] = []
            for handler, item in zip(handlers, self._items, strict=False):
                kind = type(item)
                if kind is TraceEntry:
                    entries.append(item)
                    continue
                if kind is tuple:
                    item = (handler.name, handler.priority, item[0], None, item[1], None)
                else:  # a duration (a float; an int from a registry's own clock)
                    item = (handler.name, handler.priority, "continue", None, item, None)
                entries.append(TraceEntry(*item))
            self._items = entries
            self._handlers = None
        return self._items

    @overload
    def __getitem__(self, index: int) -> TraceEntry: ...

    @overload
    def __getitem__(self, index: slice) -> list[TraceEntry]: ...

    def __getitem__(self, index: int | slice) -> TraceEntry | list[TraceEntry]:
        return self._entries()[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[TraceEntry]:
        return iter(self._entries())

    def handlers_that(self, action: Action) -> list[str]:
        """The names of the handlers whose action was ``action``, in the order they ran.

        Asked of every dispatch by the event log (who modified): read off what each call
        recorded, without making the entries (only a continue, which a bare duration
        stands for, makes them)."""
        handlers = self._handlers
        if handlers is None or action == "continue":
            return [e.handler for e in self._entries() if e.action == action]
        names: list[str] = []
        for handler, item in zip(handlers, self._items, strict=False):
            kind = type(item)
            if kind is tuple and item[0] == action:
                names.append(handler.name)
            elif kind is TraceEntry and item.action == action:
                names.append(item.handler)
        return names

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Trace):
            return self._entries() == other._entries()
        if isinstance(other, list | tuple):
            return self._entries() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable content, like a list

    def __repr__(self) -> str:
        return f"Trace({self._entries()!r})"

    def __reduce__(self) -> tuple[type[Trace], tuple[list[TraceEntry]]]:
        # Pickled and copied as its entries, without the handlers they came from.
        return (Trace, (self._entries(),))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        entries = handler.generate_schema(list[TraceEntry])
        return core_schema.union_schema(
            [
                core_schema.is_instance_schema(cls),
                core_schema.no_info_after_validator_function(cls, entries),
            ],
            serialization=core_schema.plain_serializer_function_ser_schema(
                cls._entries, return_schema=entries
            ),
        )


def recorded(items: list[TraceItem], handlers: Sequence[Ran] | None) -> Trace:
    """A trace over ``items``: item ``i`` is handler ``handlers[i]``'s `TraceEntry`; or,
    for a handler that returned None or an empty continue, just its duration (a float);
    or, for one that returned another result, an ``(action, duration)`` pair (an exact
    tuple: a `TraceEntry` is a tuple subclass).

    Takes ``items`` as it is (no copy), and skips ``__init__``: it runs once per emit.
    """
    trace: Trace = _object_new(Trace)
    trace._items = items
    trace._handlers = handlers
    return trace
