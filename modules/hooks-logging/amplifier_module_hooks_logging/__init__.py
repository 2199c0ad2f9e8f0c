"""hooks-logging: every hook event, standard and contributed, as one JSONL record.

Records look like ``{"schema": "amplifier-hooks.event/1", "ts": ..., "event": ...,
"session_id": ..., "data": {...}}``. Values under configured keys are replaced by
``[REDACTED]``, long strings are cut, and when hooks-redaction is mounted its scrubber
(capability ``redaction.scrub``) cleans every string too — tool payloads included, which
hooks-redaction itself leaves alone for the agent. The handler only observes: it returns
None and runs late (priority 1000) so it records the data as earlier hooks changed it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import structlog

from amplifier_hooks.subscriptions import Mounted, Subscriptions, known_events
from amplifier_module_hooks_logging.config import LoggingConfig, parse_config
from amplifier_module_hooks_logging.sanitize import KeyMatcher, Sanitizer
from amplifier_module_hooks_logging.writer import SCHEMA, JsonlWriter

__all__ = [
    "HANDLER_NAME",
    "SCHEMA",
    "EventLogger",
    "LoggingConfig",
    "mount",
    "on_session_ready",
]

MODULE_ID = "hooks-logging"
HANDLER_NAME = "log_event"
SCRUB_CAPABILITY = "redaction.scrub"

logger = structlog.get_logger("amplifier_hooks")

_mounted: Mounted[Subscriptions] = Mounted()


class EventLogger:
    """Writes one record per event it sees; never changes the event."""

    def __init__(self, config: LoggingConfig, coordinator: Any) -> None:
        self.config = config
        self.path = Path(config.path).expanduser().absolute()
        self._coordinator = coordinator
        self._matcher = KeyMatcher(config.redact_keys)
        self._session_id: str | None = None
        try:
            self.writer = JsonlWriter(self.path)
        except OSError as exc:
            raise ValueError(f"hooks-logging cannot open {str(self.path)!r}: {exc}") from exc

    def handle(self, event: str, data: dict[str, Any]) -> None:
        """The hook handler (sync: it never waits, so the registry calls it inline)."""
        session_id = data.get("session_id")
        if isinstance(session_id, str) and session_id:
            self._session_id = session_id
        fields: dict[str, Any] = {}
        if self._session_id is not None:
            fields["session_id"] = self._session_id
        fields["data"] = self._sanitizer()(data)
        self.writer.write(event, **fields)

    def _sanitizer(self) -> Sanitizer:
        scrub = None
        if self.config.scrub_secrets:
            # Looked up per event: hooks-redaction may mount after this module, or go away.
            get = getattr(self._coordinator, "get_capability", None)
            candidate = get(SCRUB_CAPABILITY) if callable(get) else None
            scrub = candidate if callable(candidate) else None
        return Sanitizer(self._matcher, self.config.max_value_chars, scrub)

    def close(self) -> None:
        self.writer.close()


async def mount(coordinator: Any, config: Mapping[str, Any] | None = None) -> Callable[[], None]:
    """Validate ``config``, open the log file and register on every event known so far."""
    settings = parse_config(config)
    event_logger = EventLogger(settings, coordinator)
    subscriptions = Subscriptions(
        coordinator.hooks,
        event_logger.handle,
        name=HANDLER_NAME,
        priority=settings.priority,
        include=settings.events,
        exclude=settings.exclude_events,
        owner=MODULE_ID,
    )
    # Registered at mount, not only at session-ready, so session:start and anything else
    # emitted before the session is ready is recorded too.
    try:
        subscriptions.add(await known_events(coordinator))
    except BaseException:
        subscriptions.close()
        event_logger.close()
        raise
    _mounted.add(coordinator, subscriptions)

    def cleanup() -> None:
        subscriptions.close()
        _mounted.discard(coordinator, subscriptions)
        event_logger.close()

    return cleanup


async def on_session_ready(coordinator: Any) -> None:
    """Also log the custom events every module has contributed by now."""
    for subscriptions in _mounted.get(coordinator):
        added = await subscriptions.refresh(coordinator)
        if added:
            logger.debug("event log covers contributed events", events=added)
