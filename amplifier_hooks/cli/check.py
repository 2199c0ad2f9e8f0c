"""The ``check`` command: mount a bundle as a run would, and list what it registered.

A bundle that is wrong fails here with the error a run would give, a module that fails
to load or mount included; what is only suspicious (an optional module left out, an
override for a handler nobody registers, a handler on an event nothing emits) is shown
as a warning. The handlers table keeps event and handler names whole at any width: they
are what a person looks for, and what a bundle's overrides name.
"""

from __future__ import annotations

import argparse
import difflib
import math
import os
from collections.abc import Iterable
from typing import IO, Any

from rich.table import Table
from rich.text import Text

from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.cli.report import make_console, write_json
from amplifier_hooks.cli.session import open_coordinator
from amplifier_hooks.engine.registry import HandlerInfo
from amplifier_hooks.events import STANDARD_EVENTS

__all__ = ["add_parser", "check", "unknown_events"]


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``check`` to the CLI; its parser."""
    check = add_command(
        commands,
        common,
        "check",
        "Load BUNDLE and mount every module as a run would (a module that "
        "fails fails the check, unless its entry is optional: then it is a warning); list "
        "the handlers of each event with priority, timeout and module.",
    )
    add_bundle_argument(check)
    check.add_argument(
        "--strict", action="store_true", help="fail on optional modules that fail, too"
    )
    check.add_argument("--json", action="store_true", help="print JSON")
    return check


def _timeout(value: float | None) -> str:
    if value is None or value == 0 or math.isinf(value):
        return "none"
    return f"{value:g}s"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _handler_json(info: HandlerInfo) -> dict[str, Any]:
    return {
        "event": info.event,
        "name": info.name,
        "priority": info.priority,
        "timeout": None if info.timeout in (None, 0) or math.isinf(info.timeout) else info.timeout,
        "fail_closed": info.fail_closed,
        "module": info.owner,
    }


async def check(
    path: str | os.PathLike[str], out: IO[str], *, as_json: bool = False, strict: bool = False
) -> int:
    """Load and mount the bundle as a run would; list its handlers per event. Raises
    `BundleError` when anything in it is wrong, a module that fails included (an optional
    one only when ``strict``); an optional module left out is a warning."""
    bundle = load_bundle(path)
    # Approvals are never asked here, and a check must not touch the person's state.
    coordinator, load = await open_coordinator(
        bundle, provider=PolicyApprovalProvider(), store=":memory:", strict=strict or None
    )
    try:
        handlers = coordinator.hooks.handler_info()
        known = await coordinator.known_events()
    finally:
        await coordinator.cleanup()
    mounted = load.mounted if load else []
    skipped = [str(p) for f in load.failures for p in f.problems()] if load else []
    unused = load.unused_overrides if load else {}
    unheard = unknown_events(handlers, known)
    said = what_it_does(bundle.name, mounted)
    if as_json:
        write_json(
            out,
            {
                "bundle": bundle.name,
                "path": str(bundle.path),
                "files": [str(f) for f in bundle.files],
                "ok": True,
                "modules": [
                    {"key": m.key, "module": m.entry.module, "found_by": m.found_by}
                    for m in mounted
                ],
                "handlers": [_handler_json(h) for h in handlers],
                "contributed_events": [e for e in known if e not in STANDARD_EVENTS],
                "unused_overrides": unused,
                "unknown_events": unheard,
                "skipped_optional": skipped,
                "warnings": [
                    *bundle.warnings,
                    *(n for m in mounted for n in m.notices),
                    *([said] if said else []),
                ],
                "ignored": bundle.ignored,
            },
        )
        return 0
    console = make_console(out)
    title = Text("bundle ", style="bold")
    title.append(bundle.name, style="bold")
    title.append(
        f" is valid: {_plural(len(mounted), 'module')}, {_plural(len(handlers), 'handler')}",
        style="green",
    )
    console.print(title)
    for file in bundle.files:
        console.print(Text(f"  file  {file}", style="dim"))
    modules = Table(title="Modules", title_justify="left", box=None, padding=(0, 2))
    for column in ("module", "found by", "handlers"):
        modules.add_column(column)
    # Counted from the listing: the modules have been unmounted by now.
    owned: dict[str | None, int] = {}
    for info in handlers:
        owned[info.owner] = owned.get(info.owner, 0) + 1
    for m in mounted:
        modules.add_row(m.key, Text(m.found_by), str(owned.get(m.key, 0)))
    console.print()
    console.print(modules)
    console.print()
    console.print(_handlers_table(handlers, console.width))
    for problem in skipped:
        console.print(Text(f"warning: optional module left out: {problem}", style="yellow"))
    for warning in [*bundle.warnings, *(n for m in mounted for n in m.notices)]:
        console.print(Text(f"warning: {warning}", style="yellow"))
    if said:
        console.print(Text(f"warning: {said}", style="bold yellow"))
    for note in bundle.ignored:  # an Amplifier bundle's tools, providers, agents, ...
        console.print(Text(f"ignored: {note}", style="dim"))
    for hint in unheard.values():
        console.print(Text(f"warning: {hint}", style="yellow"))
    for module, names in unused.items():
        console.print(
            Text(
                f"warning: {module}: overrides for handlers it never registers: {', '.join(names)}",
                style="yellow",
            )
        )
    return 0


def what_it_does(name: str, mounted: list[Any]) -> str | None:
    """A warning for a bundle with no module: a guard that allows everything must say
    so loudly (None: it has modules)."""
    if mounted:
        return None
    return f"bundle {name} has no module: it guards and records nothing, so every call is allowed"


def unknown_events(handlers: Iterable[HandlerInfo], known: list[str]) -> dict[str, str]:
    """Events with handlers that no module says it emits, each with a warning to show.

    Such a name is well-formed but may be a typo (``tools:pre``): its handlers would never
    run, and nothing else would say so.
    """
    warnings: dict[str, str] = {}
    for event in sorted({h.event for h in handlers} - set(known)):
        names = ", ".join(sorted({h.name for h in handlers if h.event == event}))
        close = difflib.get_close_matches(event, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        warnings[event] = (
            f"{event!r} is neither a standard event nor one a module says it emits, so "
            f"{names} may never run{hint}"
        )
    return warnings


def _handlers_table(handlers: Iterable[HandlerInfo], width: int) -> Table:
    """One row per handler, its event first. Event and handler names are never cut: they
    are what a person looks for, and what a bundle's overrides name. When a row would not
    fit ``width``, each event gets a row of its own with its handlers under it, which
    leaves the names their width; the module (the modules table lists them too) is the
    column a narrow terminal cuts."""
    handlers = list(handlers)
    longest_event = max((len(h.event) for h in handlers), default=0)
    longest_name = max((len(h.name) for h in handlers), default=0)
    longest_module = max((len(h.owner or "-") for h in handlers), default=0)
    # prio, timeout and fails need at most 6, 7 and 6 cells; each column pads 1 a side.
    rest = 6 + 7 + 6
    grouped = longest_event + longest_name + rest + longest_module + 6 * 2 > width
    table = Table(
        title="Handlers per event (in run order)", title_justify="left", box=None, padding=(0, 1)
    )
    if not grouped:
        table.add_column("event", no_wrap=True, min_width=longest_event)
    name_width = max(longest_name + (2 if grouped else 0), longest_event if grouped else 0)
    table.add_column(
        "event / handler" if grouped else "handler", no_wrap=True, min_width=name_width
    )
    table.add_column("prio", justify="right", no_wrap=True)
    table.add_column("timeout", no_wrap=True)
    table.add_column("fails", no_wrap=True)
    columns = 5 if grouped else 6
    room = width - name_width - rest - columns * 2 - (0 if grouped else longest_event)
    table.add_column("module", no_wrap=True, overflow="ellipsis", max_width=max(8, room))
    previous = None
    for info in handlers:
        cells: list[Text | str] = [
            Text(info.name),
            str(info.priority),
            _timeout(info.timeout),
            Text("closed", style="red") if info.fail_closed else Text("open", style="dim"),
            Text(info.owner or "-", style="magenta"),
        ]
        if grouped:
            if info.event != previous:
                table.add_row(Text(info.event, style="bold"))
            cells[0] = Text("  " + info.name)
        else:
            cells.insert(0, Text(info.event if info.event != previous else "", style="bold"))
        table.add_row(*cells)
        previous = info.event
    return table
