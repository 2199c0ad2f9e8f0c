"""``uninstall`` stops the background hook servers its hooks started (not a ``serve`` the
person runs: it has no note, `amplifier_hooks.transports.relay.servers`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import IO

from amplifier_hooks.hosts.doctor import our_bundles

__all__ = ["bundles_in", "stop_started_servers"]


def bundles_in(*files: Path) -> tuple[str, ...]:
    """The bundles our hooks in ``files`` run: read before uninstall takes them out."""
    return tuple(sorted({b for path in files for b in our_bundles(path)}))


def stop_started_servers(bundles: Iterable[str], workspace: Path | None, out: IO[str]) -> None:
    """Stop the servers of ``bundles`` (in ``workspace`` only, unless None: user-level
    hooks run in every project) and say so, one line each."""
    wanted = tuple(bundles)
    if not wanted:
        return
    from amplifier_hooks.transports.relay.servers import stop_servers

    for note in stop_servers(wanted, None if workspace is None else str(workspace)):
        out.write(
            f"stopped the background hook server (pid {note.pid}) for {note.bundle} "
            f"in {note.workspace}\n"
        )
