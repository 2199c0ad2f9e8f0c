"""What the approval path keeps and shows passes through the event log's redaction.

A question about ``curl -H "Authorization: token ghp_..."`` is queued in a store other
processes read (the approver's page, ``approve``), audited for months, and drawn on a
screen. The gate scrubs the prompt, the reason and the details before any of that with
the scrubber the event log uses (ah-redaction's ``redaction.scrub`` capability) when the
bundle mounts one, and with the well-known secret shapes below in any case. The
request's ``raw`` fields (what a policy matches, never stored or shown) stay as they
were; the memory key is a hash, or a hook's own key scrubbed the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks.approvals.models import ApprovalRequest
from amplifier_hooks.approvals.requests import build_request
from amplifier_hooks.approvals.secrets import scrub_key, scrub_known_secrets
from amplifier_hooks.engine.resolution import ApprovalAsk

__all__ = [
    "SCRUB_CAPABILITY",
    "Scrub",
    "scrub_all",
    "scrub_key",
    "scrub_known_secrets",
    "shown_request",
]

SCRUB_CAPABILITY = "redaction.scrub"
"""The capability ah-redaction offers: ``scrub(value) -> value``, secrets replaced."""

Scrub = Callable[[Any], Any]


def shown_request(
    request: ApprovalRequest,
    ask: ApprovalAsk,
    event: str,
    data: Mapping[str, Any],
    workspace: str,
    scrub: Scrub | None,
) -> ApprovalRequest:
    """``request`` (built from ``ask`` and ``data``) as it may be stored and shown: its
    prompt, reason, details and the raw fields a queue keeps (``shown_raw``) are built
    again from the scrubbed ask and data -- scrubbed whole, before a summary cuts a
    secret from the name that gives it away. ``raw`` stays as it was, for policies to
    match. A key a hook named (``approval_key``, often the command itself) is scrubbed
    the same way, the same call always scrubbing to the same key, so "always" still
    matches it; a hashed key (``auto:``) holds no text to scrub."""
    key = _clean_key(request.key, scrub)
    if key != request.key:
        request = request.model_copy(update={"key": key})
    texts = {"prompt": ask.prompt, "reason": ask.reason, "data": dict(data)}
    clean = scrub_all(texts, scrub)
    if clean == texts:
        return request
    shown_ask = ask.model_copy(
        update={
            "prompt": clean["prompt"] if isinstance(clean["prompt"], str) else ask.prompt,
            "reason": clean["reason"] if isinstance(clean["reason"], str) else None,
        }
    )
    shown_data = clean["data"] if isinstance(clean["data"], dict) else {}
    shown = build_request(shown_ask, event, shown_data, workspace=workspace)
    return request.model_copy(
        update={
            "prompt": shown.prompt,
            "reason": shown.reason,
            "details": shown.details,
            "shown_raw": shown.raw,
        }
    )


def _clean_key(key: str, scrub: Scrub | None) -> str:
    if not key or key.startswith("auto:"):
        return key
    if scrub is not None:
        try:
            cleaned = scrub(key)
        except Exception:  # a failing scrubber: the well-known shapes still go
            cleaned = key
        key = cleaned if isinstance(cleaned, str) else key
    return scrub_key(key)


def scrub_all(value: dict[str, Any], scrub: Scrub | None) -> dict[str, Any]:
    """``value`` through the bundle's ``scrub`` (if any) and `scrub_known_secrets`
    (always: a bundle's rules may be narrower, and a scrubber that fails must not leave
    the secret in)."""
    cleaned: Any = value
    if scrub is not None:
        try:
            cleaned = scrub(value)
        except Exception:  # the fallback below still runs; the module logs its own trouble
            cleaned = value
    if not isinstance(cleaned, dict):
        cleaned = value
    result: dict[str, Any] = scrub_known_secrets(cleaned)
    return result
