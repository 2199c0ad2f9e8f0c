"""``amplifier-hooks approve``: answer the questions agents put on the shared queue.

With no arguments it opens the approver's console (a Textual app); ``--list`` prints what
is waiting (``--json`` for scripts); ``ID --allow|--deny|--choice TEXT`` answers one;
``--prune [--older-than DAYS]`` deletes queued requests that are long over; ``--web``
serves the console to a browser (`amplifier_hooks.cli.approve_web`).
Exit codes: 0 done; 1 the answer did not count (another approver was first, the
deadline had passed, no such request); 2 bad input or a store that cannot be used.
"""

from __future__ import annotations

import argparse
import getpass
import json
import socket
from typing import IO, Any

from rich.table import Table
from rich.text import Text

from amplifier_hooks.approvals import ApprovalBackend, PendingRequest, open_store, pick_option
from amplifier_hooks.approvals.heartbeat import Heartbeat
from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.approvals.store import QUEUE_RETENTION, STORE_ENV
from amplifier_hooks.approvals.store.orphans import withdraw_at_open
from amplifier_hooks.cli.approvals import workspace_text
from amplifier_hooks.cli.approve_web import add_web_arguments, web_options_given
from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.cli.numbers import number_of
from amplifier_hooks.cli.report import make_console, one_line
from amplifier_hooks.cli.words import plural
from amplifier_hooks.ui.choosing import format_remaining

__all__ = ["add_parser", "answer", "approver_name", "list_pending", "run"]

DAY = 24 * 3600.0


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the ``approve`` command to the CLI's subcommands; returns its parser."""
    approve = add_command(
        commands,
        common,
        "approve",
        "Answer the approval requests that agents using the queue provider "
        "have put in the shared store. Without ID or --list: the approver's console.",
    )
    approve.add_argument("id", nargs="?", type=int, metavar="ID", help="the request to answer")
    approve.add_argument(
        "--store",
        metavar="URL",
        help=f"the shared store: postgresql://… or a SQLite path (default: ${STORE_ENV}, "
        "else the user's state file)",
    )
    what = approve.add_mutually_exclusive_group()
    what.add_argument("--allow", action="store_true", help="answer ID with its allow option")
    what.add_argument("--deny", action="store_true", help="answer ID with its deny option")
    what.add_argument("--choice", metavar="OPTION", help="answer ID with this exact option")
    what.add_argument("--list", action="store_true", help="list the requests waiting")
    what.add_argument(
        "--prune",
        action="store_true",
        help="delete queued requests that have been over (answered, expired or past their "
        "deadline) for more than --older-than days; never one still waiting",
    )
    approve.add_argument(
        "--older-than",
        type=number_of("days", exclusive=True, finite=True),
        metavar="DAYS",
        help=f"with --prune: the age in days (default {QUEUE_RETENTION / DAY:g})",
    )
    approve.add_argument("--json", action="store_true", help="with --list: print JSON")
    approve.add_argument(
        "--as", dest="approver", metavar="NAME", help="who is answering (default: user@host)"
    )
    approve.add_argument(
        "--order",
        choices=["newest", "deadline"],
        default="newest",
        help="console order: newest first (default) or nearest deadline first",
    )
    add_web_arguments(approve)
    return approve


def approver_name() -> str:
    """``user@host``: who answered, as the audit and other consoles show it."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return f"{user}@{socket.gethostname()}"


def _record(row: PendingRequest) -> dict[str, Any]:
    record = row.model_dump(mode="json")
    left = row.seconds_left()
    record["seconds_left"] = None if left == float("inf") else round(left, 3)
    return record


async def list_pending(backend: ApprovalBackend, out: IO[str], *, as_json: bool) -> int:
    """Print the requests waiting for an answer, newest first."""
    # Past its deadline a request is no longer awaited (its agent applied the default).
    waiting = [r for r in await backend.list_pending() if r.seconds_left() > 0]
    if as_json:
        out.write(json.dumps({"store": backend.name, "pending": [_record(r) for r in waiting]}))
        out.write("\n")
        return 0
    console = make_console(out)
    if not waiting:
        console.print(Text(f"Nothing waiting in {clean_text(backend.name, None)}."))
        return 0
    console.print(
        Text(f"Waiting in {clean_text(backend.name, None)}: {plural(len(waiting), 'request')}")
    )
    for row in waiting:
        console.print()
        console.print(_block(row))
    return 0


def _block(row: PendingRequest) -> Table:
    """One request as labelled lines: at any width each value wraps between words under
    its label (a table of eight columns broke words at 80 columns), nothing is cut, and a
    prompt's line breaks read " / ". Everything an agent wrote is literal text."""
    block = Table.grid(padding=(0, 2))
    block.add_column(style="bold", no_wrap=True)
    block.add_column(overflow="fold")
    left = format_remaining(row.seconds_left())
    block.add_row(f"#{row.id}", Text(f"{left} left" if row.deadline else left, style="bold"))
    lines = [
        ("prompt", one_line(row.prompt)),
        *((name, value) for name, value in row.details.items()),
        ("from", f"session {row.session_id} · host {row.host}"),
        ("workspace", row.workspace or "-"),
        ("asked by", f"{row.source} on {row.event}"),
        ("options", " / ".join(row.options)),
    ]
    for name, value in lines:
        block.add_row(Text(clean_text(name, 40)), Text(clean_text(value, None)))
    return block


async def answer(
    backend: ApprovalBackend,
    ident: int,
    *,
    decision: str | None,
    choice: str | None,
    approver: str,
    out: IO[str],
    err: IO[str],
) -> int:
    """Answer request ``ident`` with ``choice`` or the option meaning ``decision``."""
    row = await backend.pending(ident)
    if row is None:
        err.write(f"no queued request {ident} in {backend.name}\n")
        return 1
    if choice is None:
        choice = pick_option(row.options, "allow" if decision == "allow" else "deny")
        if choice is None:
            err.write(f"request {ident} has no option that means {decision}: {row.options}\n")
            return 2
    elif choice not in row.options:
        err.write(f"{choice!r} is not one of the options of request {ident}: {row.options}\n")
        return 2
    result = await backend.answer(ident, choice, approver)
    (out if result.won else err).write(result.explain() + "\n")
    return 0 if result.won else 1


async def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """The ``approve`` command."""
    if args.older_than is not None and not args.prune:
        err.write("--older-than goes with --prune\n")
        return 2
    backend = open_store(args.store)
    approver = args.approver or approver_name()
    try:
        if args.web:
            if (
                args.id is not None
                or args.list
                or args.prune
                or args.allow
                or args.deny
                or args.choice
            ):
                err.write("--web serves the console; it takes no ID, --list or --prune\n")
                return 2
            from amplifier_hooks.cli.approve_web import run_web

            return await run_web(args, backend, approver, out, err)
        if web_options_given(args):
            err.write("--host, --port, --allow-remote, --certfile and --keyfile go with --web\n")
            return 2
        if args.prune:
            days = QUEUE_RETENTION / DAY if args.older_than is None else args.older_than
            removed = await backend.prune_queue(days * DAY)
            out.write(
                f"deleted {plural(removed, 'queued request')} over for more "
                f"than {plural(days, 'day')} from {backend.name}\n"
            )
            return 0
        if args.list:
            await withdraw_at_open(backend)  # a question whose asker is gone is not listed
            return await list_pending(backend, out, as_json=args.json)
        if args.id is not None:
            if not (args.allow or args.deny or args.choice):
                err.write("say how to answer: --allow, --deny or --choice OPTION\n")
                return 2
            decision = "allow" if args.allow else "deny" if args.deny else None
            return await answer(
                backend,
                args.id,
                decision=decision,
                choice=args.choice,
                approver=approver,
                out=out,
                err=err,
            )
        if args.allow or args.deny or args.choice:
            err.write("--allow, --deny and --choice need the ID of a request\n")
            return 2
        from amplifier_hooks.cli.approve_app import ApproverApp

        app = ApproverApp(backend, approver=approver, order=args.order)
        # While the console runs, agents with approval provider auto queue to it.
        async with Heartbeat(backend, approver, "console"):
            await app.run_async()
        if app.stop_note is not None:
            err.write(app.stop_note + "\n")
        return app.return_code or 0
    finally:
        await backend.aclose()


async def shared_remembered(
    url: str,
    key: str | None,
    *,
    forget: bool,
    everything: bool,
    as_json: bool,
    out: IO[str],
    err: IO[str],
) -> int:
    """``approvals list|forget`` on a PostgreSQL store (the SQLite file has its own)."""
    backend = open_store(url)
    try:
        if forget:
            removed = await backend.forget_all() if everything else await backend.forget(key or "")
            if not everything and removed == 0:
                err.write(f"nothing remembered under {key!r} in {backend.name}\n")
                return 1
            out.write(f"forgot {plural(removed, 'remembered decision')} in {backend.name}\n")
            return 0
        items = await backend.list_remembered()
        if as_json:
            records = [i.model_dump(mode="json") for i in items]
            out.write(json.dumps({"store": backend.name, "remembered": records}) + "\n")
            return 0
        console = make_console(out)
        table = Table(
            title=f"Remembered decisions in {backend.name}",
            title_justify="left",
            box=None,
            padding=(0, 2),
        )
        table.add_column("key", no_wrap=True, overflow="ignore")
        for column in ("decision", "choice", "asked by", "workspace", "since"):
            table.add_column(column, overflow="fold")
        for item in items:
            table.add_row(
                Text(item.key),
                Text("allow", style="green") if item.allowed else Text("deny", style="red"),
                Text(clean_text(item.choice or "-")),
                Text(clean_text(item.source)),
                Text(workspace_text(item.workspace)),
                item.created_at.strftime("%Y-%m-%d %H:%M"),
            )
        console.print(table)
        return 0
    finally:
        await backend.aclose()
