"""ah-logging: every hook event, standard and contributed, as one JSONL record.

Records look like ``{"schema": "amplifier-hooks.event/2", "ts": ..., "event": ...,
"session_id": ..., "outcome": {...}, "data": {...}}``. A dispatched event is recorded by a
coordinator observer once its outcome is final, so a call that a hook or a person denied is
logged with who denied it (a handler would never run after the deny). Events emitted
directly on the registry (todo:*, for example) have no outcome; a handler records those, and
skips the event a dispatch is running so nothing is written twice.

Values under configured keys are replaced by ``[REDACTED]``, long strings are cut, and when
ah-redaction is mounted its scrubber (capability ``redaction.scrub``) cleans every string
too — tool payloads included, which ah-redaction itself leaves alone for the agent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules import CoordinatorView, Mounts, Subscriptions, inline
from amplifier_hooks.session.outcome import Outcome
from amplifier_module_ah_logging.config import LoggingConfig, default_log_path, parse_config
from amplifier_module_ah_logging.outcome import summarize
from amplifier_module_ah_logging.sanitize import KeyMatcher, Sanitizer
from amplifier_module_ah_logging.withheld import WITHHELD, Withholding, failure_kind
from amplifier_module_ah_logging.writer import SCHEMA, JsonlWriter

__all__ = [
    "HANDLER_NAME",
    "SCHEMA",
    "WITHHELD",
    "EventLogger",
    "LoggingConfig",
    "mount",
    "on_session_ready",
]

MODULE_ID = "ah-logging"
HANDLER_NAME = "log_event"
SCRUB_CAPABILITY = "redaction.scrub"

logger = get_logger()

_mounts = Mounts()


class EventLogger:
    """Writes one record per event it sees; never changes the event or its outcome."""

    def __init__(self, config: LoggingConfig, coordinator: CoordinatorView) -> None:
        self.config = config
        self.path = Path(config.path or default_log_path()).expanduser().absolute()
        self._coordinator = coordinator
        self._matcher = KeyMatcher.shared(tuple(config.redact_keys))
        self._session_id: str | None = None
        self._sanitizer_made: Sanitizer | None = None
        self.subscriptions: Subscriptions | None = None
        """Set by `mount`: the events the handler is registered on."""
        try:
            self.writer = JsonlWriter(self.path)
        except OSError as exc:
            raise ValueError(f"ah-logging cannot open {str(self.path)!r}: {exc}") from exc

    @inline  # bounded work on its input: no thread hop (engine.offload)
    def handle(self, event: str, data: dict[str, Any]) -> None:
        """The hook handler, for events emitted without a dispatch (sync: it never waits,
        so the registry calls it inline)."""
        if self._coordinator.dispatching() == event:
            return  # `observe` records it, with its outcome, once the dispatch is done
        self._write(event, data, None)

    def observe(self, event: str, outcome: Outcome) -> None:
        """The coordinator observer: one record per dispatched event, with its outcome."""
        if self.subscriptions is not None and self.subscriptions.wants(event):
            self._write(event, outcome.data, outcome)

    def _write(self, event: str, data: Mapping[str, Any], outcome: Outcome | None) -> None:
        # Both paths (handler and observer) write here, so both withhold alike.
        try:
            fields, withheld = self._record(data, outcome)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            # Not even the safe part could be made: say so without the message, which
            # may quote the payload. Not raised: logging never interrupts the agent.
            logger.error(
                "event not recorded: no record of it could be made safe",
                hook_event=event,
                error=failure_kind(exc),
            )
            return
        self.writer.write(event, **fields)
        if withheld is not None:
            logger.warning(
                "event recorded without what could not be scrubbed",
                hook_event=event,
                withheld=withheld["fields"],
                error=withheld["error"],
            )

    def _record(
        self, data: Mapping[str, Any], outcome: Outcome | None
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The record's fields, and its ``withheld`` marker (None when nothing was).

        Each part is made safe on its own, so a payload that defeats the scrub costs only
        itself: the event, its time, the session and the decision are still recorded."""
        self._note_session(data)
        sanitize = self._sanitizer()
        withholding = Withholding(sanitize.text, sanitize.cut)
        fields: dict[str, Any] = {}
        if self._session_id is not None:
            fields["session_id"] = self._session_id
        # The guards of `Withholding.value`, written out: no closure made per record.
        if outcome is not None:
            try:
                fields["outcome"] = summarize(
                    outcome, withholding.outcome_text, withholding.handler_name
                )
            except KeyboardInterrupt:
                raise
            except BaseException as exc:
                withholding.failed("outcome", exc)
        try:
            fields["data"] = sanitize(data)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            withholding.failed("data", exc)
        withheld = withholding.marker()
        if withheld is not None:
            fields["withheld"] = withheld
        return fields, withheld

    def _note_session(self, data: Mapping[str, Any]) -> None:
        """Remember the event's session id; a payload where it cannot be read keeps the
        last one."""
        try:
            session_id = data.get("session_id")
            if isinstance(session_id, str):
                session_id = str.__str__(session_id)  # a plain copy of a str subclass
                if session_id:
                    self._session_id = session_id
        except Exception:
            return

    def _sanitizer(self) -> Sanitizer:
        scrub = None
        if self.config.scrub_secrets:
            # Looked up per event: ah-redaction may mount after this module, or go away.
            candidate = self._coordinator.get_capability(SCRUB_CAPABILITY)
            scrub = candidate if callable(candidate) else None
        sanitizer = self._sanitizer_made
        if sanitizer is None or sanitizer.scrub is not scrub:
            # It holds nothing of an event: the one made last serves while the scrub is
            # the same.
            sanitizer = Sanitizer(self._matcher, self.config.max_value_chars, scrub)
            self._sanitizer_made = sanitizer
        return sanitizer

    def close(self) -> None:
        """Close the file (idempotent)."""
        self.writer.close()


async def mount(
    coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
) -> Callable[[], None]:
    """Validate ``config``, open the log file, observe dispatches and register the handler
    on every event known so far."""
    event_logger = EventLogger(parse_config(config), coordinator)
    settings = event_logger.config
    with _mounts.start(coordinator, MODULE_ID) as mounting:
        mounting.at_cleanup(event_logger.close)  # undone last: the file outlives the registrations
        # Registered at mount, not only at session-ready, so session:start and anything
        # else emitted before the session is ready is recorded too.
        event_logger.subscriptions = await mounting.subscribe(
            event_logger.handle,
            HookOptions(priority=settings.priority, name=HANDLER_NAME),
            include=settings.events,
            exclude=settings.exclude_events,
        )
        mounting.observe(event_logger.observe)
    return mounting.cleanup


async def on_session_ready(coordinator: CoordinatorView) -> None:
    """Also log the custom events every module has contributed by now (when emitted
    directly: dispatched events are recorded whatever their name)."""
    added = await _mounts.refresh(coordinator)
    if added:
        logger.debug("event log covers contributed events", events=added)
