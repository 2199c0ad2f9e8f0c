"""A question on the shared queue, as several tests set one up and wait for it: the
bundle whose bash calls are asked through the queue, and the wait until they are queued."""

from __future__ import annotations

import textwrap
from pathlib import Path

from amplifier_hooks.approvals import ApprovalBackend, PendingRequest

__all__ = ["queue_bundle", "until_pending"]


def queue_bundle(tmp_path: Path, store: str | Path) -> Path:
    """A bundle at ``tmp_path/bundle.md`` whose every bash call is asked through the queue
    in ``store`` (a SQLite path or a PostgreSQL URL), with 600 s to answer."""
    path = tmp_path / "bundle.md"
    path.write_text(
        textwrap.dedent(
            f"""\
            ---
            bundle:
              name: queued
            session:
              approvals:
                provider: queue
                store: "{store}"
            hooks:
              - module: ah-approval
                config:
                  defaults: false
                  rules:
                    - {{tool: bash, decision: ask, timeout: 600}}
            ---
            """
        )
    )
    return path


async def until_pending(backend: ApprovalBackend, count: int = 1) -> list[PendingRequest]:
    """The pending questions once there are ``count``; each wait is woken by the store's
    change notice, and the bound (600 s) only stops a hang."""
    for _ in range(1200):
        rows = await backend.list_pending()
        if len(rows) >= count:
            return rows
        await backend.wait_for_change(None, 0.5)
    raise AssertionError(f"{count} question(s) were never queued")
