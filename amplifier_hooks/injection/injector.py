"""`ContextInjector`: inject_context results into the conversation, within limits.

Without limits one chatty hook floods the model's context window. Every injection is
measured (UTF-8 bytes, and tokens with the real tiktoken encoding), checked against a
per-injection size limit and a per-turn token budget, and then either delivered — persisted
ones to the context sink, ephemeral ones back to the caller for the current LLM call — or
dropped with a warning. Nothing is truncated and nothing over a limit is raised into the
agent loop; every decision lands in a bounded audit trail.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import deque
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from amplifier_hooks.engine.registry import utc_timestamp
from amplifier_hooks.engine.resolution import Injection
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.events import PROMPT_SUBMIT, validate_event_name
from amplifier_hooks.injection.records import (
    AuditRecord,
    DropReason,
    InjectionReport,
    InjectionUsage,
)
from amplifier_hooks.injection.tokens import DEFAULT_ENCODING, check_encoding, load_encoding
from amplifier_hooks.logs import get_logger

if TYPE_CHECKING:
    import tiktoken

__all__ = ["ContextInjector", "ContextSink"]

logger = get_logger()

DEFAULT_SIZE_LIMIT = 10_240
DEFAULT_BUDGET_PER_TURN = 10_000
DEFAULT_AUDIT_SIZE = 1000

_ROLES = frozenset({"system", "user", "assistant"})
_IMPERSONATING_ROLES = frozenset({"user", "assistant"})
_PREVIEW_CHARS = 120
_COUNT_CAP_BYTES = 1 << 20
"""An injection already dropped for size is tokenized only up to this many bytes: counting a
runaway multi-megabyte text would stall the event loop just to fill in an audit field."""

# Builds an `AuditRecord` (one per injection per dispatch) without its Python-level
# ``__new__``: the constructor with keywords is a measurable share of a dispatch of short
# injections (``python -m benchmarks.compare`` shows it).
_tuple_new = tuple.__new__


@runtime_checkable
class ContextSink(Protocol):
    """Where persisted injections go: the agent's conversation history.

    ``add_message`` may be a plain method or a coroutine function; its return value is
    awaited when it is awaitable and otherwise ignored.
    """

    def add_message(self, message: dict[str, Any]) -> object: ...


def _utf8_len(text: str) -> int:
    if text.isascii():
        return len(text)
    # surrogatepass: a lone surrogate (from a badly decoded file name, say) is measured,
    # not raised into the agent loop.
    return len(text.encode("utf-8", "surrogatepass"))


def _check_limit(name: str, value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int or None, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be >= 0 (or None for unlimited), got {value}")
    return value


def _check_roles(refuse_roles: Collection[str]) -> frozenset[str]:
    if isinstance(refuse_roles, str):
        raise TypeError(f"refuse_roles must be a collection of roles, e.g. [{refuse_roles!r}]")
    roles = frozenset(refuse_roles)
    unknown = roles - _ROLES
    if unknown:
        raise ValueError(
            f"refuse_roles has unknown roles {sorted(unknown)}; expected some of {sorted(_ROLES)}"
        )
    return roles


def _check_sink(sink: object) -> ContextSink | None:
    if sink is None:
        return None
    if not callable(getattr(sink, "add_message", None)):
        raise TypeError(
            f"context sink {type(sink).__name__} has no callable add_message(message: dict)"
        )
    return sink  # type: ignore[return-value]


class ContextInjector:
    """Applies inject_context results under a per-injection size limit and a per-turn
    token budget.

    Within one `apply`, injections are taken in handler order; each is accepted if it fits
    in what is left of the turn's budget, so an early large one that does not fit never
    blocks a later small one that does. Ephemeral and persisted injections count alike.
    """

    def __init__(
        self,
        size_limit: int | None = DEFAULT_SIZE_LIMIT,
        budget_per_turn: int | None = DEFAULT_BUDGET_PER_TURN,
        encoding: str = DEFAULT_ENCODING,
        *,
        sink: ContextSink | None = None,
        turn_event: str = PROMPT_SUBMIT,
        refuse_roles: Collection[str] = (),
        audit_size: int = DEFAULT_AUDIT_SIZE,
    ) -> None:
        self.size_limit = _check_limit("size_limit", size_limit)
        self.budget_per_turn = _check_limit("budget_per_turn", budget_per_turn)
        self.turn_event = validate_event_name(turn_event)
        self.refuse_roles = _check_roles(refuse_roles)
        if isinstance(audit_size, bool) or not isinstance(audit_size, int) or audit_size < 1:
            raise ValueError(f"audit_size must be a positive int, got {audit_size!r}")
        # Checked here: a missing encoding is a configuration error and should surface
        # when the session starts, not in the middle of a turn. Parsed at the first count
        # (`encoding`): a session whose hooks inject nothing never pays for that.
        check_encoding(encoding)
        self._encoding_name = encoding
        self._encoding: tiktoken.Encoding | None = None
        self._sink = _check_sink(sink)
        self._note_missing_sink = True
        self.audit: deque[AuditRecord] = deque(maxlen=audit_size)
        self._turn = 0
        self._used = 0
        self._accepted = 0
        self._dropped = 0

    @property
    def encoding(self) -> tiktoken.Encoding:
        """The tiktoken encoding tokens are counted in (loaded on first use)."""
        found = self._encoding
        if found is None:
            found = self._encoding = load_encoding(self._encoding_name)
        return found

    @property
    def sink(self) -> ContextSink | None:
        """Where persisted injections go; settable (the Coordinator sets its own)."""
        return self._sink

    @sink.setter
    def sink(self, sink: ContextSink | None) -> None:
        self._sink = _check_sink(sink)
        self._note_missing_sink = True

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` in this injector's encoding.

        Special-token strings such as ``<|endoftext|>`` count as the plain text they are: a
        hook's text is data, and tiktoken's default of raising on them would turn an odd
        injection into an exception in the agent loop.
        """
        return len(self.encoding.encode_ordinary(text))

    @property
    def usage(self) -> InjectionUsage:
        """Tokens used and left in the current turn, readable at any time."""
        budget = self.budget_per_turn
        return InjectionUsage(
            used=self._used,
            budget=budget,
            left=None if budget is None else max(budget - self._used, 0),
            turn=self._turn,
            accepted=self._accepted,
            dropped=self._dropped,
        )

    def observe(self, event: str) -> None:
        """Note a dispatched event; the turn-boundary event starts a fresh budget.

        Call it before applying that event's own injections, so they count in the new turn.
        """
        if event == self.turn_event:
            self.reset_turn()

    def reset_turn(self) -> None:
        """Start a new turn: the whole budget is available again."""
        logger.debug("injection turn reset", turn=self._turn + 1, previous_used=self._used)
        self._turn += 1
        self._used = 0
        self._accepted = 0
        self._dropped = 0

    async def apply(self, injections: Sequence[Injection], event: str) -> InjectionReport:
        """Check each injection against the limits, deliver the ones that fit, drop the rest.

        Never raises for an injection: over-limit, refused and undeliverable ones are logged,
        audited and listed in ``report.dropped``.
        """
        report = InjectionReport()
        if not injections:
            return report
        timestamp = utc_timestamp()  # datetime.now(UTC).isoformat()'s text, cheaper
        # One loop, no coroutine per injection: this runs for every injection of every
        # dispatch, and its own cost should stay small next to tiktoken's.
        encode = self.encoding.encode_ordinary
        size_limit = self.size_limit
        budget = self.budget_per_turn
        refuse_roles = self.refuse_roles
        audit = self.audit
        unsunk: list[str] = []
        for injection in injections:
            text = injection.text
            nbytes = len(text) if text.isascii() else _utf8_len(text)
            over_size = size_limit is not None and nbytes > size_limit
            tokens: int | None = None
            if not over_size or nbytes <= _COUNT_CAP_BYTES:
                tokens = len(encode(text))
            role = injection.role
            reason: DropReason | None = None
            if role in refuse_roles:
                reason = "role_refused"
            elif over_size:
                reason = "size_limit"
            elif budget is not None and self._used + (tokens or 0) > budget:
                reason = "budget"
            if reason is not None:
                self._drop(injection, event, timestamp, nbytes, tokens, reason, report)
                continue

            assert tokens is not None  # counted whenever the size check passed
            # Reserve before any await: a concurrent apply must see these tokens as spent.
            turn = self._turn
            self._used += tokens
            source = injection.source
            ephemeral = injection.ephemeral
            to_tool_result = injection.append_to_last_tool_result
            message = {
                "role": role,
                "content": text,
                "metadata": {
                    "source": source,
                    "event": event,
                    "timestamp": timestamp,
                    "ephemeral": ephemeral,
                    "append_to_last_tool_result": to_tool_result,
                    "tokens": tokens,
                },
            }
            if ephemeral:
                report.ephemeral.append(message)
            else:
                sink = self._sink
                if sink is None:
                    unsunk.append(source)
                else:
                    try:
                        delivered = sink.add_message(message)
                        if delivered is not None and inspect.isawaitable(delivered):
                            await delivered
                    except asyncio.CancelledError:
                        logger.warning(
                            "context sink cancelled while adding an injection",
                            handler=source,
                            hook_event=event,
                        )
                        raise
                    except Exception as exc:
                        logger.error(
                            "context sink failed; injection dropped",
                            handler=source,
                            hook_event=event,
                            sink=type(sink).__name__,
                            error=describe_exception(exc),
                            exc_info=True,
                        )
                        if self._turn == turn:
                            self._used -= tokens  # it never reached the context
                        self._drop(
                            injection, event, timestamp, nbytes, tokens, "sink_error", report
                        )
                        continue
                report.persisted.append(message)
            self._accepted += 1
            audit.append(
                _audit_record(injection, event, timestamp, nbytes, tokens, None, self._turn)
            )
            if role in _IMPERSONATING_ROLES:
                # Allowed by configuration, but a hook speaking as the person or the model
                # is worth a trace in the log.
                logger.info(
                    "context injected with a non-system role",
                    role=role,
                    handler=source,
                    hook_event=event,
                    tokens=tokens,
                )
        if unsunk and self._note_missing_sink:
            # A missing sink is a fact about the configuration, not about this batch: noted
            # once (and again after the sink is set), not on every dispatch.
            self._note_missing_sink = False
            logger.debug(
                "no context sink; persisted injections are returned in reports only",
                handlers=unsunk,
                hook_event=event,
            )
        return report

    def _drop(
        self,
        injection: Injection,
        event: str,
        timestamp: str,
        nbytes: int,
        tokens: int | None,
        reason: DropReason,
        report: InjectionReport,
    ) -> None:
        record = _audit_record(injection, event, timestamp, nbytes, tokens, reason, self._turn)
        self._dropped += 1
        self.audit.append(record)
        report.dropped.append(record)
        usage = self.usage
        logger.warning(
            "context injection dropped",
            reason=reason,
            handler=injection.source,
            hook_event=event,
            role=injection.role,
            ephemeral=injection.ephemeral,
            bytes=nbytes,
            tokens=tokens,
            size_limit=self.size_limit,
            budget=usage.budget,
            budget_left=usage.left,
        )


def _audit_record(
    injection: Injection,
    event: str,
    timestamp: str,
    nbytes: int,
    tokens: int | None,
    reason: DropReason | None,
    turn: int,
) -> AuditRecord:
    """The audit's record of ``injection``: accepted when there is no drop ``reason``.
    Built as the tuple it is (no keyword handling): one is made for every injection."""
    return _tuple_new(
        AuditRecord,
        (  # in field order: see `AuditRecord`
            injection.source,
            event,
            injection.role,
            injection.ephemeral,
            injection.append_to_last_tool_result,
            nbytes,
            tokens,
            reason is None,
            reason,
            timestamp,
            turn,
            injection.text[:_PREVIEW_CHARS],
        ),
    )
