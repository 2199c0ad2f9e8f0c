"""The ``approvals list`` and ``approvals forget`` commands: the decisions a person asked
to remember ("always" answers) in a local approval store.

A listing never creates the store, and shortens long keys in the middle to the
terminal's width; ``forget`` takes a key whole or as the listing shortened it, and
refuses a shortened key that fits more than one. A shared PostgreSQL store is handled
by `amplifier_hooks.cli.approve.shared_remembered` instead.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any, TypeVar

from rich.table import Table
from rich.text import Text

from amplifier_hooks.approvals import ApprovalStore, RememberedDecision, default_store_path
from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.approvals.store import GLOBAL
from amplifier_hooks.cli.commands import summary
from amplifier_hooks.cli.report import make_console, write_json
from amplifier_hooks.cli.words import plural
from amplifier_hooks.toolcalls import shorten_middle

__all__ = ["add_parser", "approvals_forget", "approvals_list", "match_key", "shorten_middle"]

T = TypeVar("T")


def add_parser(commands: Any, common: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Add ``approvals list`` and ``approvals forget`` to the CLI; their parsers."""
    approvals: argparse.ArgumentParser = commands.add_parser("approvals", help=summary("approvals"))
    actions = approvals.add_subparsers(dest="action", metavar="ACTION", required=True)
    store_help = (
        "approval store: a SQLite file or a postgresql:// URL (default: the user's state file)"
    )
    listing = actions.add_parser("list", parents=[common], help="list remembered decisions")
    listing.add_argument("--store", metavar="PATH", help=store_help)
    listing.add_argument("--json", action="store_true", help="print JSON")
    forget = actions.add_parser("forget", parents=[common], help="forget remembered decisions")
    which = forget.add_mutually_exclusive_group(required=True)
    which.add_argument("key", nargs="?", metavar="KEY", help="the key shown by 'approvals list'")
    which.add_argument("--all", action="store_true", help="forget every remembered decision")
    forget.add_argument("--store", metavar="PATH", help=store_help)
    return [approvals, listing, forget]


def _store_path(path: str | None) -> str | Path:
    return path if path == ":memory:" else Path(path).expanduser() if path else default_store_path()


def _remembered_json(item: RememberedDecision) -> dict[str, Any]:
    return {
        "key": item.key,
        "allowed": item.allowed,
        "choice": item.choice,
        "source": item.source,
        "prompt": item.prompt,
        "workspace": item.workspace,
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
        write_json(out, {"store": str(path), "remembered": [_remembered_json(i) for i in items]})
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
                Text(workspace_text(item.workspace)),
            ],
            item.key,
        )
        for item in items
    ]
    headers = ("decision", "scope", "age", "asked by", "workspace", "key")
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
    return asyncio.run(_on_store(path, lambda db: db.list_remembered()))


async def _on_store(path: str | Path, call: Callable[[ApprovalStore], Awaitable[T]]) -> T:
    """``call`` on the store at ``path``, closed afterwards."""
    db = ApprovalStore(path)
    try:
        return await call(db)
    finally:
        await db.aclose()


def _scope(item: RememberedDecision) -> str:
    """How long the decision holds: always, or until its expiry."""
    return f"until {item.expires_at:%Y-%m-%d %H:%M}" if item.expires_at else "always"


WORKSPACE_WIDTH = 32
"""Cells a workspace path gets in a listing (shortened in the middle; --json has it whole)."""


def workspace_text(workspace: str) -> str:
    """Where an "always" answer holds, for a listing: ``every workspace``, or the
    workspace path it is limited to (shortened in the middle)."""
    if workspace in ("", GLOBAL):
        return "every workspace"
    return shorten_middle(clean_text(workspace, None), WORKSPACE_WIDTH)


def _age(elapsed: timedelta) -> str:
    """``elapsed`` in its largest whole unit: 45s, 12m, 5h, 3d."""
    seconds = max(0, int(elapsed.total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


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
    removed = asyncio.run(
        _on_store(path, lambda db: db.forget_all() if everything else db.forget(key or ""))
    )
    if not everything and removed == 0:
        err.write(f"nothing remembered under {key!r} in {path} (see: approvals list)\n")
        return 1
    out.write(f"forgot {plural(removed, 'remembered decision')} in {path}\n")
    return 0
