"""``check``, ``events`` and ``approvals``: the commands that inspect rather than replay."""

from __future__ import annotations

import difflib
import json
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from rich.table import Table
from rich.text import Text

from amplifier_hooks.approvals import (
    ApprovalStore,
    PolicyApprovalProvider,
    RememberedDecision,
    default_store_path,
)
from amplifier_hooks.bundles import Bundle, load_bundle
from amplifier_hooks.cli.report import make_console
from amplifier_hooks.cli.session import open_coordinator
from amplifier_hooks.events import STANDARD_EVENTS
from amplifier_hooks.registry import HandlerInfo


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


def _write_json(out: IO[str], record: object) -> None:
    out.write(json.dumps(record, ensure_ascii=False, indent=2, default=str) + "\n")


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
    if as_json:
        _write_json(
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
                "warnings": bundle.warnings,
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
    console.print(_handlers_table(handlers))
    for problem in skipped:
        console.print(Text(f"warning: optional module left out: {problem}", style="yellow"))
    for warning in bundle.warnings:
        console.print(Text(f"warning: {warning}", style="yellow"))
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


def _handlers_table(handlers: Iterable[HandlerInfo]) -> Table:
    table = Table(
        title="Handlers per event (in run order)", title_justify="left", box=None, padding=(0, 2)
    )
    for column in ("event", "handler", "priority", "timeout", "fails", "module"):
        table.add_column(column, justify="right" if column == "priority" else "left")
    previous = None
    for info in handlers:
        table.add_row(
            Text(info.event if info.event != previous else "", style="bold"),
            Text(info.name),
            str(info.priority),
            _timeout(info.timeout),
            Text("closed", style="red") if info.fail_closed else Text("open", style="dim"),
            Text(info.owner or "-", style="magenta"),
        )
        previous = info.event
    return table


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
        _write_json(out, {"bundle": bundle.name if bundle else None, "events": records})
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


def _store_path(path: str | None) -> str | Path:
    return path if path == ":memory:" else Path(path).expanduser() if path else default_store_path()


def _remembered_json(item: RememberedDecision) -> dict[str, Any]:
    return {
        "key": item.key,
        "allowed": item.allowed,
        "choice": item.choice,
        "source": item.source,
        "prompt": item.prompt,
        "created_at": item.created_at.isoformat(),
        "expires_at": item.expires_at.isoformat() if item.expires_at else None,
    }


def approvals_list(store: str | None, out: IO[str], *, as_json: bool = False) -> int:
    """The remembered decisions ("always" answers) in the store."""
    path = _store_path(store)
    items: list[RememberedDecision] = []
    if not (isinstance(path, Path) and not path.exists()):
        db = ApprovalStore(path)
        try:
            items = db.list_remembered()
        finally:
            db.close()
    if as_json:
        _write_json(out, {"store": str(path), "remembered": [_remembered_json(i) for i in items]})
        return 0
    console = make_console(out)
    if not items:
        console.print(Text(f"No remembered decisions in {path}."))
        return 0
    table = Table(
        title=f"Remembered decisions in {path}", title_justify="left", box=None, padding=(0, 2)
    )
    # The key is what `approvals forget KEY` takes: never wrapped, so it copies whole.
    table.add_column("key", no_wrap=True, overflow="ignore")
    for column in ("decision", "choice", "asked by", "since", "expires"):
        table.add_column(column, overflow="fold")
    for item in items:
        table.add_row(
            Text(item.key),
            Text("allow", style="green") if item.allowed else Text("deny", style="red"),
            Text(item.choice or "-"),
            Text(item.source),
            item.created_at.strftime("%Y-%m-%d %H:%M"),
            item.expires_at.strftime("%Y-%m-%d %H:%M") if item.expires_at else "never",
        )
    console.print(table)
    return 0


def approvals_forget(
    store: str | None, key: str | None, *, everything: bool, out: IO[str], err: IO[str]
) -> int:
    """Forget one remembered decision (by key) or all of them; 1 if there was nothing
    to forget under that key."""
    path = _store_path(store)
    if isinstance(path, Path) and not path.exists():
        err.write(f"no approval store at {path}: nothing is remembered\n")
        return 1 if key else 0
    db = ApprovalStore(path)
    try:
        removed = db.forget_all() if everything else db.forget(key or "")
    finally:
        db.close()
    if not everything and removed == 0:
        err.write(f"nothing remembered under {key!r} in {path} (see: approvals list)\n")
        return 1
    out.write(f"forgot {removed} remembered decision{'s' if removed != 1 else ''} in {path}\n")
    return 0
