"""Whether the approval store can be reached, asked once when a command starts.

A store that cannot be reached fails every question closed, but only after the store's
retries; a command that shows questions says so at once instead (`STORE_DOWN`).
"""

from __future__ import annotations

from amplifier_hooks.approvals import ApprovalBackend, ApprovalStoreError

__all__ = ["STORE_DOWN", "STORE_PROBE_KEY", "unreachable"]

STORE_PROBE_KEY = "amplifier-hooks:probe"
"""What the check looks up (nothing is stored under it)."""
STORE_DOWN = "approval store unreachable: every question is denied (fails closed)"
"""What a command says, at once, when the store cannot be reached: each question would
otherwise wait out the store's retries and be denied without a word on screen."""


async def unreachable(backend: ApprovalBackend) -> str | None:
    """Why ``backend`` cannot be reached (one try, no retries), or None when it can."""
    try:
        await backend.lookup(STORE_PROBE_KEY, budget=0)
    except ApprovalStoreError as exc:
        return str(exc)
    return None
