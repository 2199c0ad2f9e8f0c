"""ah-redaction: a ``modify`` hook that scrubs secrets (and optionally PII) from payloads.

Secrets are replaced by ``[REDACTED:<rule>]``. The handler returns ``None`` when nothing
was found, so a clean event costs no ``modify``; it never changes the data it was given.
``tool:*`` events are left alone by default: rewriting a command or file content before the
tool runs would break the tool. The scrubber is also offered to other modules as the
capability ``redaction.scrub`` (ah-logging uses it on what it writes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import structlog

from amplifier_hooks import HookResult
from amplifier_hooks.registration import HookOptions
from amplifier_hooks.subscriptions import Mounted, Subscriptions, known_events
from amplifier_module_ah_redaction.config import (
    FIELD_RULE,
    ExtraPattern,
    RedactionConfig,
    parse_config,
)
from amplifier_module_ah_redaction.rules import (
    BUILTIN_RULES,
    PII_RULES,
    SECRET_RULES,
    Rule,
    marker,
)
from amplifier_module_ah_redaction.scrubber import MIN_TEXT, Scrubber

__all__ = [
    "BUILTIN_RULES",
    "CAPABILITY",
    "HANDLER_NAME",
    "ExtraPattern",
    "RedactionConfig",
    "Redactor",
    "marker",
    "mount",
    "on_session_ready",
]

MODULE_ID = "ah-redaction"
HANDLER_NAME = "redact_secrets"
CAPABILITY = "redaction.scrub"
"""Capability name: a callable ``scrub(value) -> value`` (secrets replaced, input untouched)."""

logger = structlog.get_logger("amplifier_hooks")

_mounted: Mounted[Subscriptions] = Mounted()


class Redactor:
    """The configured rules, and the hook handler that applies them."""

    def __init__(self, config: RedactionConfig) -> None:
        disabled = set(config.disabled_rules)
        builtin = [*SECRET_RULES, *(PII_RULES if config.pii else ())]
        rules = [rule for rule in builtin if rule.name not in disabled]
        # User rules run first: they are the most specific about this deployment.
        extra = [Rule(p.name, p.compile()) for p in config.extra_patterns]
        self.rules: tuple[Rule, ...] = (*extra, *rules)
        field_rule = None if FIELD_RULE in disabled else FIELD_RULE
        # A user pattern may match text shorter than any built-in secret can be.
        min_text = 1 if extra else MIN_TEXT
        self.scrubber = Scrubber(self.rules, field_rule=field_rule, min_text=min_text)

    def scrub(self, value: Any) -> Any:
        """``value`` with secrets replaced; the same object when there were none."""
        return self.scrubber.scrub(value)[0]

    def handle(self, event: str, data: dict[str, Any]) -> HookResult | None:
        """The hook handler: a ``modify`` with scrubbed data, or None if nothing was found."""
        scrubbed, counts = self.scrubber.scrub(data)
        if not counts:
            return None
        # Counts per rule only: the secret itself must never reach a log.
        logger.debug("secrets redacted", hook_event=event, counts=dict(counts))
        return HookResult(action="modify", data=scrubbed)


async def mount(coordinator: Any, config: Mapping[str, Any] | None = None) -> Callable[[], None]:
    """Validate ``config``, register the redaction handler, and offer the scrubber."""
    settings = parse_config(config)
    redactor = Redactor(settings)
    subscriptions = Subscriptions(
        coordinator.hooks,
        redactor.handle,
        HookOptions(
            settings.priority, HANDLER_NAME, fail_closed=settings.fail_closed, owner=MODULE_ID
        ),
        include=settings.events,
        exclude=settings.exclude_events,
    )
    subscriptions.add(await known_events(coordinator))
    _mounted.add(coordinator, subscriptions)
    drop_capability: Callable[[], None] | None = None
    register_capability = getattr(coordinator, "register_capability", None)
    if settings.capability and callable(register_capability):
        drop_capability = register_capability(CAPABILITY, redactor.scrub)

    def cleanup() -> None:
        subscriptions.close()
        _mounted.discard(coordinator, subscriptions)
        if drop_capability is not None:
            drop_capability()

    return cleanup


async def on_session_ready(coordinator: Any) -> None:
    """Cover the custom events other modules contributed after this one mounted."""
    for subscriptions in _mounted.get(coordinator):
        await subscriptions.refresh(coordinator)
