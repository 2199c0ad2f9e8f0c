"""The ``events`` command: the standard events, and with a bundle the events its modules
contribute and the handlers each one has.

Modules name the events they emit on the ``observability.events`` channel (see
`Coordinator.known_events`); an event a module handles without anyone naming it is
listed as well, so every handler shows up under its event.
"""

from __future__ import annotations

import argparse
import os
from typing import IO, Any

from rich.table import Table
from rich.text import Text

from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.bundles import Bundle, load_bundle
from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.cli.report import make_console, write_json
from amplifier_hooks.cli.session import open_coordinator
from amplifier_hooks.engine.registry import HandlerInfo
from amplifier_hooks.events import STANDARD_EVENTS

__all__ = ["add_parser", "list_events"]


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``events`` to the CLI; its parser."""
    events = add_command(
        commands,
        common,
        "events",
        "List the standard events; with BUNDLE also the events its modules "
        "contribute, and the handlers on each.",
    )
    add_bundle_argument(events, required=False)
    events.add_argument("--json", action="store_true", help="print JSON")
    return events


async def list_events(
    path: str | os.PathLike[str] | None, out: IO[str], *, as_json: bool = False
) -> int:
    """The standard events, and with a bundle the events its modules contribute and
    which handlers each one has."""
    names: list[str] = list(STANDARD_EVENTS)
    handlers: dict[str, list[HandlerInfo]] = {}
    bundle: Bundle | None = None
    if path is not None:
        bundle = load_bundle(path)
        coordinator, _ = await open_coordinator(
            bundle, provider=PolicyApprovalProvider(), store=":memory:"
        )
        try:
            names = await coordinator.known_events()
            for info in coordinator.hooks.handler_info():
                handlers.setdefault(info.event, []).append(info)
        finally:
            await coordinator.cleanup()
        # A module may handle an event nobody contributed by name: list it as well.
        names += [e for e in handlers if e not in names]
    rows = [
        (
            name,
            "standard" if name in STANDARD_EVENTS else "contributed",
            [f"{h.name} ({h.owner or '-'})" for h in handlers.get(name, [])],
        )
        for name in names
    ]
    if as_json:
        records = [{"event": e, "kind": k, "handlers": h} for e, k, h in rows]
        write_json(out, {"bundle": bundle.name if bundle else None, "events": records})
        return 0
    console = make_console(out)
    title = "Events" + (f" known to bundle {bundle.name}" if bundle else " (standard)")
    table = Table(title=title, title_justify="left", box=None, padding=(0, 2))
    table.add_column("event", style="bold")
    table.add_column("kind")
    if bundle is not None:
        table.add_column("handlers")
    for event, kind, names_of_handlers in rows:
        cells = [Text(event), Text(kind, style="dim" if kind == "standard" else "cyan")]
        if bundle is not None:
            cells.append(Text(", ".join(names_of_handlers) or "-"))
        table.add_row(*cells)
    console.print(table)
    return 0
