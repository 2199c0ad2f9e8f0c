"""What the approval path keeps and shows passes through the event log's redaction.

A question about ``curl -H "Authorization: token ghp_..."`` is queued in a store other
processes read (the approver's page, ``approve``), audited for months, and drawn on a
screen. The gate scrubs the prompt, the reason and the details before any of that with
the scrubber the event log uses (ah-redaction's ``redaction.scrub`` capability) when the
bundle mounts one, and with the well-known secret shapes below in any case. The
request's ``raw`` fields (what a policy matches, never stored or shown) and the memory key
(a hash, made before scrubbing) stay as they were, so "always" still means this command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from amplifier_hooks.approvals.models import ApprovalRequest
from amplifier_hooks.approvals.requests import build_request
from amplifier_hooks.engine.resolution import AskUser

__all__ = ["SCRUB_CAPABILITY", "Scrub", "scrub_all", "scrub_known_secrets", "shown_request"]

SCRUB_CAPABILITY = "redaction.scrub"
"""The capability ah-redaction offers: ``scrub(value) -> value``, secrets replaced."""

Scrub = Callable[[Any], Any]

_END = r"(?![A-Za-z0-9_])"
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("private_key",
         r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)"),
        ("github_token", rf"(?:gh[pousr]_[A-Za-z0-9]{{36,}}|github_pat_[A-Za-z0-9_]{{22,}}){_END}"),
        ("aws_access_key_id", rf"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{{16}}{_END}"),
        ("aws_secret_access_key",
         r"(?i)(aws_secret_access_key(?:\s*[=:]\s*|\s+)[\"']?)[A-Za-z0-9/+=]{40,}"),
        ("slack_token", rf"xox[abposr]-[A-Za-z0-9-]{{10,}}{_END}"),
        ("api_key", rf"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{{20,}}{_END}"),
        ("bearer", r"(?i)(bearer\s+)[A-Za-z0-9._~+/-]{16,}=*"),
        ("secret_assignment",
         r"(?i)((?:password|passwd|api_key|apikey|secret|token)=)[^\s&'\"]{8,}"),
    )
)  # fmt: skip


def scrub_known_secrets(value: Any) -> Any:
    """``value`` (text, or lists and mappings of it) with well-known secret shapes
    replaced by ``[REDACTED:<shape>]``; the same object when there were none."""
    if isinstance(value, str):
        text = value
        for name, pattern in _SHAPES:
            # A shape with a group keeps it (the name before the secret) and hides the rest.
            kept = r"\1" if pattern.groups else ""
            text = pattern.sub(f"{kept}[REDACTED:{name}]", text)
        return value if text == value else text
    if isinstance(value, dict):
        return {key: scrub_known_secrets(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(scrub_known_secrets(item) for item in value)
    return value


def shown_request(
    request: ApprovalRequest,
    ask: AskUser,
    event: str,
    data: Mapping[str, Any],
    workspace: str,
    scrub: Scrub | None,
) -> ApprovalRequest:
    """``request`` (built from ``ask`` and ``data``) as it may be stored and shown: its
    prompt, reason, details and the raw fields a queue keeps (``shown_raw``) are built
    again from the scrubbed ask and data -- scrubbed whole, before a summary cuts a
    secret from the name that gives it away. ``raw`` and the memory key stay as they were,
    for policies to match and "always" to mean this very command."""
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
