"""The arguments of ``amplifier-hooks run`` (the replay itself is `amplifier_hooks.cli.run`)."""

from __future__ import annotations

import argparse
from typing import Any

from amplifier_hooks.approvals.store import STORE_ENV
from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.cli.numbers import number_of

__all__ = ["add_parser"]


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``run`` to the CLI; its parser."""
    run = add_command(
        commands,
        common,
        "run",
        "Replay a JSONL trace of agent events through the coordinator built from "
        "BUNDLE. On a terminal this opens the replay app; otherwise (or with --no-tui) it "
        "prints a report.",
    )
    add_bundle_argument(run, required=False, help="bundle file (default: bundles/default.md)")
    run.add_argument(
        "--trace",
        metavar="FILE",
        help="JSONL trace to replay (default: examples/traces/demo.jsonl)",
    )
    run.add_argument("--no-tui", action="store_true", help="print a report, even on a terminal")
    run.add_argument("--json", action="store_true", help="print JSON lines instead of a report")
    run.add_argument(
        "--approvals",
        choices=["policy", "allow", "deny", "queue"],
        default=None,
        help="answer approvals without asking: the bundle's policy (no rules: deny), or "
        "allow/deny everything; or queue them for 'amplifier-hooks approve' on the shared "
        "store. Default: asked on screen in the app, policy otherwise",
    )
    run.add_argument(
        "--approval-store",
        "--store",
        metavar="PATH|URL",
        help="where remembered answers, the audit and queued questions live (':memory:' to "
        f"remember nothing between runs); default: ${STORE_ENV}, else the bundle's "
        "session.approvals.store",
    )
    run.add_argument(
        "--live",
        action="store_true",
        help="let modules with side effects act as in a session (ah-shell runs its "
        "commands, which may change files); by default a replay only shows what they "
        "would do",
    )
    run.add_argument(
        "--on-bad-line",
        choices=["stop", "skip"],
        default="stop",
        help="a bad trace line stops the run (default) or is skipped with a warning",
    )
    run.add_argument(
        "--delay",
        type=number_of("seconds"),
        default=None,
        metavar="SECONDS",
        help="pause between events in the app (default 0.3)",
    )
    return run
