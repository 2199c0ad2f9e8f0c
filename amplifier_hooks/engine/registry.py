"""`HookRegistry`: handlers per event, and the emit that folds their results."""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import time
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from amplifier_hooks.engine.calling import Clock, Handler, HandlerEntry, call_in_order
from amplifier_hooks.engine.collection import Collection
from amplifier_hooks.engine.fold import Fold
from amplifier_hooks.engine.offload import is_plain, off_loop
from amplifier_hooks.engine.options import HookOptions, RateLimit, at_least_one, resolve_timeout
from amplifier_hooks.engine.registrar import Registrar, Unregister
from amplifier_hooks.engine.resolution import Resolution, continue_resolution
from amplifier_hooks.engine.slots import RegistryAdapter
from amplifier_hooks.engine.tables import Remover, take_out
from amplifier_hooks.engine.tasks import gather_all
from amplifier_hooks.engine.trace import Trace
from amplifier_hooks.events import validate_event_name
from amplifier_hooks.logs import get_logger

__all__ = ["DEFAULT_TIMEOUT", "HandlerInfo", "HookRegistry"]

logger = get_logger()

DEFAULT_TIMEOUT = 30.0
"""Seconds a handler may take unless its registration or the event says otherwise."""

_time = time.time

_depth: contextvars.ContextVar[int] = contextvars.ContextVar("amplifier_hooks_depth", default=0)


@dataclass(frozen=True, slots=True)
class HandlerInfo:
    """One registration as a listing shows it (``amplifier-hooks check``, tests).

    ``options`` is the record it was registered with (name filled in); ``timeout`` is the
    timeout in effect: the registry's or the event's default when ``options.timeout`` is
    None, and None when there is none at all.
    """

    event: str
    options: HookOptions
    timeout: float | None

    @property
    def name(self) -> str:
        return self.options.name or ""

    @property
    def priority(self) -> int:
        return self.options.priority

    @property
    def fail_closed(self) -> bool:
        return self.options.fail_closed

    @property
    def rate_limit(self) -> RateLimit | None:
        return self.options.rate_limit

    @property
    def owner(self) -> str | None:
        return self.options.owner


class HookRegistry(Registrar):
    """Handlers registered per event, called in priority order.

    Each event's handlers are kept as an immutable sorted tuple that is replaced on every
    change: an emit iterates the tuple it started with, so registering or unregistering
    during an emit can neither skip nor repeat a handler of that emit.
    """

    def __init__(
        self,
        *,
        default_timeout: float | None = DEFAULT_TIMEOUT,
        event_timeouts: Mapping[str, float | None] | None = None,
        max_depth: int = 4,
        max_concurrency: int = 10,
        clock: Clock = time.perf_counter,
        adapter: RegistryAdapter | None = None,
        plain_handlers: Executor | None = None,
    ) -> None:
        """``clock`` is the monotonic clock (seconds) that handler durations and deadlines
        are measured on. Tests pass a controllable one to make a handler "take" a given
        time without sleeping; the timer that interrupts a suspended handler still runs on
        the event loop's own clock. ``adapter`` gives this registry another system's
        semantics (see `slots.RegistryAdapter`); without one it has this project's.
        ``plain_handlers``: where plain handlers are called, off the event loop (see
        `amplifier_hooks.engine.offload`); None: on the loop."""
        self._default_timeout = resolve_timeout(default_timeout)
        self._event_timeouts = {
            validate_event_name(event): resolve_timeout(value)
            for event, value in (event_timeouts or {}).items()
        }
        self.max_depth = at_least_one(max_depth, "max_depth")
        self.max_concurrency = at_least_one(max_concurrency, "max_concurrency")
        self._clock = clock
        self._adapter = adapter
        self.plain_handlers = plain_handlers
        self._handlers: dict[str, tuple[HandlerEntry, ...]] = {}
        self._defaults: dict[str, Any] = {}
        self._seq = itertools.count()
        # Names already validated for emit: a misspelt event must fail loudly (it would
        # silently skip every hook), and checking each name once keeps that off the hot path.
        self._emitted_names: set[str] = set()

    # -- registration ------------------------------------------------------------------

    on = Registrar.register
    """Alias of `register` (the reference's name)."""

    def add(self, event: str, handler: Handler, options: HookOptions) -> Unregister:
        """Register ``handler`` for ``event`` with its options as one record (`register`
        spells them as keywords); returns a function that unregisters it."""
        check_registration(event, handler, options)
        if not options.name:
            options = options.replace(name=options.name_for(handler))
        entry = self.add_checked(event, self.placed(handler), options)
        return Remover(self._handlers, event, entry)

    def add_checked(self, event: str, handler: Handler, options: HookOptions) -> HandlerEntry:
        """`add` for a registration already checked (`check_registration`), named and
        placed (`placed`): a module's scope checks each one when the module makes it and
        puts it live later, with its bundle, so it is not checked twice. The entry made is
        taken out again with `discard` (no unregister function is made for it)."""
        if options.timeout is None:
            effective = self._event_timeouts.get(event, self._default_timeout)
        else:
            effective = resolve_timeout(options.timeout)
        if self._adapter is not None:  # after the name is taken from the handler itself
            handler = self._adapter.adapt_handler(handler)
        entry = HandlerEntry(event, handler, options, next(self._seq), effective, self._clock)
        current = self._handlers.get(event)
        if current is None:
            self._handlers[event] = (entry,)
        elif current[-1].priority <= entry.priority:
            # Goes last (the usual case: registered in priority order; its ``seq`` is the
            # newest, so it sorts after an equal priority): no sort needed.
            self._handlers[event] = (*current, entry)
        else:
            self._handlers[event] = tuple(sorted((*current, entry), key=lambda e: e.sort_key))
        return entry

    def discard(self, event: str, entry: HandlerEntry) -> None:
        """Take out an entry `add_checked` made (nothing if it is out already)."""
        take_out(self._handlers, event, entry)

    def placed(self, handler: Handler) -> Handler:
        """``handler`` as this registry calls it: in `plain_handlers` if it is plain
        (`offload.is_plain`) and the registry has an executor, else as it is."""
        if self.plain_handlers is None or not is_plain(handler):
            return handler
        return off_loop(handler, self.plain_handlers)

    def set_default_fields(self, **fields: Any) -> None:
        """Fields merged under the data of every emit (the emitted data wins)."""
        self._defaults.update(fields)

    def list_handlers(self, event: str | None = None) -> dict[str, list[str]]:
        """Handler names per event, in the order they run."""
        events = [event] if event is not None else sorted(self._handlers)
        return {e: [h.name for h in self._handlers.get(e, ())] for e in events}

    def handler_info(self, event: str | None = None) -> list[HandlerInfo]:
        """Every registration (or one event's) with its settings, in run order per event."""
        events = [event] if event is not None else sorted(self._handlers)
        return [
            HandlerInfo(h.event, h.options, h.timeout)
            for e in events
            for h in self._handlers.get(e, ())
        ]

    def events(self) -> list[str]:
        """Events that have at least one handler."""
        return sorted(self._handlers)

    def timeout_for(self, event: str) -> float | None:
        """The timeout a handler registered for ``event`` without its own would get."""
        return self._event_timeouts.get(event, self._default_timeout)

    # -- emitting ------------------------------------------------------------------------

    def _prepare(self, event: str, data: Mapping[str, Any] | None) -> dict[str, Any]:
        payload = self._merge(event, data)
        payload["timestamp"] = utc_timestamp()
        return payload

    def _merge(self, event: str, data: Mapping[str, Any] | None) -> dict[str, Any]:
        """The default fields with ``data`` over them; data that is not a mapping is a
        TypeError naming the event."""
        if data:
            try:
                return {**self._defaults, **data}
            except TypeError:
                pass
        elif data is None or isinstance(data, Mapping):
            return self._defaults.copy()
        raise TypeError(f"data for {event!r} must be a mapping (a dict), not {type(data).__name__}")

    def _unheard(self, event: str, data: Mapping[str, Any] | None) -> Resolution:
        """The resolution of an emit that runs no handler: continue, the caller's data as
        given (validated, copied), no defaults, no timestamp."""
        if event not in self._emitted_names:
            validate_event_name(event)
            self._emitted_names.add(event)
        if data is not None and not isinstance(data, Mapping):
            raise TypeError(
                f"data for {event!r} must be a mapping (a dict), not {type(data).__name__}"
            )
        return continue_resolution(dict(data) if data is not None else {}, Trace())

    def _enter_level(self, event: str) -> contextvars.Token[int] | None:
        """Enter one nesting level, or log and return None if that would be too deep."""
        depth = _depth.get()
        if depth >= self.max_depth:
            self._too_deep(event, depth)
            return None
        return _depth.set(depth + 1)

    def _too_deep(self, event: str, depth: int) -> None:
        logger.warning(
            "hook emit nested too deeply; handlers skipped",
            hook_event=event,
            depth=depth,
            max_depth=self.max_depth,
        )

    async def emit(self, event: str, data: Mapping[str, Any] | None = None) -> Resolution:
        """Run the event's handlers in order and fold their results (see `fold`)."""
        entries = self._handlers.get(event)
        if not entries:
            return self._unheard(event, data)
        depth = _depth.get()  # `_enter_level`, inlined: it runs on every emit
        if depth >= self.max_depth:
            self._too_deep(event, depth)
            return self._unheard(event, data)
        token = _depth.set(depth + 1)
        try:
            # `_merge` for a plain dict, inlined: it runs on every emit.
            payload = {**self._defaults, **data} if type(data) is dict else self._merge(event, data)
            payload["timestamp"] = utc_timestamp()
            fold = Fold(payload, entries)
            pending = call_in_order(entries, event, fold, self._clock)
            if pending is not None:  # a handler suspended
                await pending
            if self._adapter is not None:
                return self._adapter.adapt_resolution(fold.resolution())
            return fold.resolution()
        finally:
            _depth.reset(token)

    async def emit_and_collect(
        self, event: str, data: Mapping[str, Any] | None = None, timeout: float = 1.0
    ) -> list[Any]:
        """Run the event's handlers concurrently and return each non-None ``result.data``.

        Results come in priority order. Each handler gets at most ``timeout`` seconds (or
        its own, shorter timeout); at most ``max_concurrency`` run at once. Failed handlers
        are logged and contribute nothing.
        """
        entries = self._handlers.get(event)
        if not entries:
            self._unheard(event, data)  # validates the name and the data
            return []
        limit = resolve_timeout(timeout)
        token = self._enter_level(event)
        if token is None:
            return []
        try:
            payload = self._prepare(event, data)
            clock = self._clock
            semaphore = asyncio.Semaphore(self.max_concurrency)

            async def run(entry: HandlerEntry) -> list[Any]:
                async with semaphore:
                    collection = Collection(payload)
                    pending = call_in_order((entry.capped(limit),), event, collection, clock)
                    if pending is not None:
                        await pending
                    return collection.collected

            # Tasks copy the current context, so handlers that emit see this nesting level.
            collected = await gather_all(run(entry) for entry in entries)
        finally:
            _depth.reset(token)
        return [data for each in collected for data in each]


def check_registration(event: str, handler: object, options: HookOptions) -> None:
    """Raise what `HookRegistry.add` raises for these arguments, registering nothing (a
    module's registrations are checked when it makes them, live or not)."""
    validate_event_name(event)
    if not callable(handler):
        raise TypeError(f"handler for {event!r} must be callable, got {type(handler).__name__}")
    if options.timeout is not None:
        resolve_timeout(options.timeout)


# The UTC second the cached prefix is for, as [start, end) in time.time() seconds.
_stamp_start = 0.0
_stamp_end = 0.0
_stamp_prefix = ""
# The microseconds as two three-digit halves, written once: two lookups in these cost
# less than formatting a six-digit number with ``%06d`` on every emit.
_MILLIS = tuple(f"{n:03d}" for n in range(1000))
_MICROS_UTC = tuple(f"{n:03d}+00:00" for n in range(1000))


def utc_timestamp() -> str:
    """The current UTC time in ISO-8601 with microseconds (``...T12:00:00.123456+00:00``).

    The text of ``datetime.now(UTC).isoformat()`` (except that a whole second keeps its
    ``.000000``) at a fraction of the cost: the date-and-seconds part is formatted once
    per second, and float arithmetic on ``time.time()`` is cheaper than integer arithmetic
    on ``time.time_ns()`` (whose values do not fit in one machine word). Every emit that
    reaches a handler stamps one.
    """
    global _stamp_start, _stamp_end, _stamp_prefix
    now = _time()
    if not _stamp_start <= now < _stamp_end:  # a new second, or the clock went back
        second = int(now)
        _stamp_start = float(second)
        _stamp_end = _stamp_start + 1.0
        _stamp_prefix = datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S.")
    # Within 0..999999: now - _stamp_start is exact and below 1.0 (now < _stamp_end).
    millis, micros = divmod(int((now - _stamp_start) * 1e6), 1000)
    return f"{_stamp_prefix}{_MILLIS[millis]}{_MICROS_UTC[micros]}"
