"""ah-redaction: a ``modify`` hook that scrubs secrets (and optionally PII) from payloads.

Secrets are replaced by ``[REDACTED:<rule>]``. The handler returns ``None`` when nothing
was found, so a clean event costs no ``modify``; it never changes the data it was given.
``tool:*`` events are left alone by default: rewriting a command or file content before the
tool runs would break the tool. The scrubber is also offered to other modules as the
capability ``redaction.scrub`` (ah-logging uses it on what it writes).

The handler is registered ``fail_closed`` unless the configuration says otherwise: a scrub
that raises or overruns its timeout denies the event, because data whose scrub did not
finish may still hold the secret it was about to remove. Turning that off is logged as a
warning at mount, so a redaction that fails open is never a silent default.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from amplifier_hooks import HookResult, events
from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules import CoordinatorView, Mounts, inline
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
    describe_rule,
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
"""Capability name: a callable ``scrub(value) -> value`` (secrets replaced, input untouched),
with ``scrub.unchanged(texts) -> bool`` (True: ``scrub`` hands back each of them as it is)."""

logger = get_logger()

_mounts = Mounts()


class Redactor:
    """The configured rules, and the hook handler that applies them."""

    def __init__(self, config: RedactionConfig) -> None:
        self.scrubber = _scrubber(
            bool(config.pii), frozenset(config.disabled_rules), tuple(config.extra_patterns)
        )
        self.rules: tuple[Rule, ...] = self.scrubber.rules

    def scrub(self, value: Any) -> Any:
        """``value`` with secrets replaced; the same object when there were none."""
        if type(value) is str:  # ah-logging calls this for every string it writes
            return self.scrubber.text(value)
        return self.scrubber.scrub(value)[0]

    __call__ = scrub  # the capability `redaction.scrub` is this object

    def unchanged(self, texts: Iterable[str]) -> bool:
        """True when `scrub` would hand back every one of ``texts`` as it is (one look
        at all of them); False when it may not. Offered with the capability: ah-logging
        asks it once per record instead of scrubbing each string."""
        return self.scrubber.unchanged(texts)

    @inline  # bounded work on its input: no thread hop (engine.offload)
    def handle(self, event: str, data: dict[str, Any]) -> HookResult | None:
        """The hook handler: a ``modify`` with scrubbed data, or None if nothing was found."""
        scrubbed, counts = self.scrubber.scrub(data)
        if not counts:
            return None
        # Counts per rule only: the secret itself must never reach a log.
        logger.debug("secrets redacted", hook_event=event, counts=dict(counts))
        if event != events.PROMPT_SUBMIT:
            return HookResult(action="modify", data=scrubbed)
        # The person typed it: tell them what was found and how to go on. (A host that
        # cannot take the redacted prompt, such as Claude Code, blocks it with this text.)
        return HookResult(
            action="modify",
            data=scrubbed,
            user_message=found_in_prompt(sorted(counts)),
            user_message_level="warning",
        )


@functools.lru_cache(maxsize=16)
def _scrubber(pii: bool, disabled: frozenset[str], extras: tuple[ExtraPattern, ...]) -> Scrubber:
    """The scrubber of one set of rules, shared by every session that configures it: it
    keeps no state of a session (its memo of long strings is keyed on their text)."""
    builtin = [*SECRET_RULES, *(PII_RULES if pii else ())]
    rules = [rule for rule in builtin if rule.name not in disabled]
    # User rules run first: they are the most specific about this deployment.
    extra = [Rule(p.name, p.compile()) for p in extras]
    field_rule = None if FIELD_RULE in disabled else FIELD_RULE
    # A user pattern may match text shorter than any built-in secret can be.
    min_text = 1 if extra else MIN_TEXT
    return Scrubber((*extra, *rules), field_rule=field_rule, min_text=min_text)


def found_in_prompt(rules: list[str]) -> str:
    """What a person is told when their prompt held secrets: what, by which rule, and
    what to do (never the secret)."""
    what = " and ".join(describe_rule(name) for name in rules)
    named = ", ".join(rules)
    return (
        f"your prompt holds {what} ({MODULE_ID} rule {named}); remove it and send the "
        f"prompt again (to let it through, list the rule under {MODULE_ID}'s "
        "disabled_rules in the bundle)"
    )


async def mount(
    coordinator: CoordinatorView, config: Mapping[str, Any] | None = None
) -> Callable[[], None]:
    """Validate ``config``, register the redaction handler, and offer the scrubber."""
    settings = parse_config(config)
    redactor = Redactor(settings)
    if not settings.fail_closed:
        logger.warning(
            "redaction fails open: an event whose scrub fails or times out goes on unscrubbed",
            module=MODULE_ID,
            handler=HANDLER_NAME,
            setting="fail_closed: false",
        )
    with _mounts.start(coordinator, MODULE_ID) as mounting:
        await mounting.subscribe(
            redactor.handle,
            HookOptions(
                priority=settings.priority, name=HANDLER_NAME, fail_closed=settings.fail_closed
            ),
            include=settings.events,
            exclude=settings.exclude_events,
        )
        if settings.capability:
            mounting.offer(CAPABILITY, redactor)
    return mounting.cleanup


async def on_session_ready(coordinator: CoordinatorView) -> None:
    """Cover the custom events other modules contributed after this one mounted."""
    await _mounts.refresh(coordinator)
