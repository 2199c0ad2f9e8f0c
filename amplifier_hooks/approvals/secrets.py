"""The well-known shapes of secrets, replaced wherever the approval path keeps or shows
text: a question's prompt and details (`amplifier_hooks.approvals.redact`) and the keys
its answers are stored under, in every store (a migration scrubs older rows)."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["scrub_key", "scrub_known_secrets"]

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


def scrub_key(key: str) -> str:
    """A memory key as it is stored: a hashed key (``auto:``) as it is, a named one with
    well-known secrets replaced (the same key always gives the same text)."""
    if key.startswith("auto:"):
        return key
    cleaned = scrub_known_secrets(key)
    return cleaned if isinstance(cleaned, str) else key
