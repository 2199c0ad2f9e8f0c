"""``check``, ``events`` and ``approvals``: the commands that inspect rather than replay."""

from __future__ import annotations

import difflib
import json
import math
import os
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
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
from amplifier_hooks.approvals.models import clean_text
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
    console.print(_handlers_table(handlers, console.width))
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
    """The remembered decisions ("always" answers) in the store: what each decides, for
    how long and since when first, then who asked and the key, shortened in the middle
    to what the terminal has left (`approvals forget` takes the shortened form too)."""
    path = _store_path(store)
    items = _remembered(path)
    if as_json:
        _write_json(out, {"store": str(path), "remembered": [_remembered_json(i) for i in items]})
        return 0
    console = make_console(out)
    if not items:
        console.print(Text(f"No remembered decisions in {path}."))
        return 0
    now = datetime.now(UTC)
    rows = [
        (
            [
                Text("allow", style="bold green")
                if item.allowed
                else Text("deny", style="bold red"),
                Text(_scope(item)),
                Text(_age(now - item.created_at)),
                Text(clean_text(item.source, 40), style="magenta"),
            ],
            item.key,
        )
        for item in items
    ]
    headers = ("decision", "scope", "age", "asked by", "key")
    widths = [
        max(len(h), *(cells[i].cell_len for cells, _ in rows)) for i, h in enumerate(headers[:-1])
    ]
    # Columns pad one cell a side; the key takes what is left, never less than 20.
    room = max(20, console.width - sum(widths) - 2 * len(headers))
    table = Table(
        title=f"Remembered decisions in {path}", title_justify="left", box=None, padding=(0, 1)
    )
    for header in headers:
        table.add_column(header, no_wrap=True)
    for cells, key in rows:
        table.add_row(*cells, Text(shorten_middle(clean_text(key, None), room)))
    console.print(table)
    if any(len(clean_text(key, None)) > room for _, key in rows):
        console.print(
            Text(
                "Keys are shortened in the middle; 'approvals forget' takes them as shown, "
                "and --json lists them whole.",
                style="dim",
            )
        )
    return 0


def _remembered(path: str | Path) -> list[RememberedDecision]:
    if isinstance(path, Path) and not path.exists():
        return []  # listing must not create the store
    db = ApprovalStore(path)
    try:
        return db.list_remembered()
    finally:
        db.close()


def _scope(item: RememberedDecision) -> str:
    """How long the decision holds: always, or until its expiry. A store that records the
    decision's scope (workspace, request) says so too."""
    scope = getattr(item, "scope", None)
    until = f"until {item.expires_at:%Y-%m-%d %H:%M}" if item.expires_at else "always"
    return f"{scope}, {until}" if isinstance(scope, str) and scope else until


def _age(elapsed: timedelta) -> str:
    """``elapsed`` in its largest whole unit: 45s, 12m, 5h, 3d."""
    seconds = max(0, int(elapsed.total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def shorten_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters: its start and end kept, `…` between. The
    end of a key (the command, the path) tells keys apart as much as its start."""
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    tail = (width - 1) // 2
    head = width - 1 - tail
    return text[:head] + "…" + text[len(text) - tail :]


def match_key(keys: Iterable[str], given: str) -> list[str]:
    """The keys ``given`` names: itself, or for a key shortened with `…` by
    `approvals list`, every key with that start and that end."""
    keys = list(keys)
    if given in keys or "…" not in given:
        return [given] if given in keys else []
    head, _, tail = given.partition("…")
    return [
        k
        for k in keys
        if len(k) >= len(head) + len(tail) and k.startswith(head) and k.endswith(tail)
    ]


def approvals_forget(
    store: str | None, key: str | None, *, everything: bool, out: IO[str], err: IO[str]
) -> int:
    """Forget one remembered decision (by key, whole or as `approvals list` shortened it)
    or all of them; 1 if there was nothing to forget under that key, or the shortened key
    fits more than one."""
    path = _store_path(store)
    if isinstance(path, Path) and not path.exists():
        err.write(f"no approval store at {path}: nothing is remembered\n")
        return 1 if key else 0
    if not everything and key and "…" in key:
        matches = match_key((item.key for item in _remembered(path)), key)
        if len(matches) > 1:
            err.write(
                f"{key!r} fits {len(matches)} remembered keys in {path}; give more of it "
                "(approvals list --json shows them whole)\n"
            )
            return 1
        key = matches[0] if matches else key
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
