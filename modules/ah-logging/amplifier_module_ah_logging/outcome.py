"""The ``outcome`` part of a record: what came of a dispatched event, for an audit reader.

Only the decision and who shaped it are kept (not the injected text, not the full trace):
the record must stay one readable line, and injected text is already in the history.
Every string is passed through ``text`` (scrub and cut) like the event data; handler names
through ``name``, which may treat them differently when the scrub fails (they are not
payload, see `withheld`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from amplifier_hooks.session.outcome import Outcome


def summarize(
    outcome: Outcome, text: Callable[[str], str], name: Callable[[str], str] | None = None
) -> dict[str, Any]:
    """The JSON-safe summary of a `Coordinator.dispatch` outcome (see the README)."""
    name = text if name is None else name
    resolution = outcome.resolution
    modified = resolution.trace.handlers_that("modify") if resolution is not None else []
    return {
        "allowed": outcome.allowed,
        "action": outcome.action,
        "denied_by": _text(outcome.denied_by, name),
        "reason": _text(outcome.reason, text),
        "modified_by": [name(handler) for handler in modified],
        "approvals": [
            {
                "source": name(d.source),
                "choice": _text(d.choice, text),
                "via": d.via,
                "allowed": d.allowed,
            }
            for d in outcome.approvals
        ],
        "injected": {
            "count": len(outcome.injected) + len(outcome.ephemeral),
            "ephemeral": len(outcome.ephemeral),
            "tokens": _tokens((*outcome.injected, *outcome.ephemeral)),
            "dropped": len(outcome.dropped),
        },
    }


def _text(value: str | None, text: Callable[[str], str]) -> str | None:
    return None if value is None else text(value)


def _tokens(messages: Iterable[object]) -> int:
    # The injector puts each message's token count in its metadata; anything else counts 0.
    total = 0
    for message in messages:
        metadata = message.get("metadata") if isinstance(message, Mapping) else None
        count = metadata.get("tokens") if isinstance(metadata, Mapping) else None
        if isinstance(count, int) and not isinstance(count, bool):
            total += count
    return total
