"""``check``, ``events`` and ``approvals``: the commands that inspect rather than replay.

Each lives in a module named after it — `amplifier_hooks.cli.check`, `.events` and
`.approvals` — and is re-exported here, where `main` finds them and where they lived
before they were split up.
"""

from __future__ import annotations

from amplifier_hooks.cli.approvals import (
    approvals_forget,
    approvals_list,
    match_key,
    shorten_middle,
)
from amplifier_hooks.cli.check import check, unknown_events
from amplifier_hooks.cli.events import list_events

__all__ = [
    "approvals_forget",
    "approvals_list",
    "check",
    "list_events",
    "match_key",
    "shorten_middle",
    "unknown_events",
]
