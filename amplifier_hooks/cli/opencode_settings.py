"""``amplifier-hooks opencode install|uninstall``: our plugin in a project's
``.opencode/plugin/`` (``--global``: the user's ``~/.config/opencode/plugin/``); see
`amplifier_hooks.hosts.opencode.install`.

``install`` ends with one status line: whether OpenCode will run the plugin here
("WILL NOT RUN" and why, when it will not), and what no plugin can close.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import IO

from amplifier_hooks.cli import host_install
from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.doctor_records import Wiring
from amplifier_hooks.hosts.opencode.doctor import UNGUARDED, opencode_wirings
from amplifier_hooks.hosts.opencode.install import (
    OpenCodePlan,
    install_opencode,
    plugin_place,
    uninstall_opencode,
)
from amplifier_hooks.transports.relay.place import RELAY_PROTOCOL
from amplifier_hooks.web.tokens import TOKEN_ENV, default_token_path

__all__ = ["COMMAND", "run", "status_line"]

PROJECT_HELP = "the project whose .opencode/plugin/ to change (default: the current directory)"
GLOBAL_HELP = "the user's ~/.config/opencode/plugin/ instead: every project is guarded"


COMMAND = host_install.InstallCommand(
    install="guard OpenCode with a bundle (a plugin in .opencode/plugin/)",
    install_description="Write the amplifier-hooks plugin for BUNDLE into .opencode/plugin/ "
    "(--global: ~/.config/opencode/plugin/). It sends every tool call to the "
    "workspace's hook server (started on first use) or to a running `serve` (--url), "
    "and blocks the call on any failure. Other plugins are not touched; running it "
    "again changes nothing.",
    uninstall="take the amplifier-hooks plugin out of OpenCode",
    uninstall_description="Remove the plugin 'install' wrote, and the folders it made for "
    "it if they are empty; everything else stays.",
    url=host_install.served_url_help("opencode"),
    places=host_install.workspace_places(PROJECT_HELP, GLOBAL_HELP),
)


def status_line(found: list[Wiring], path: Path) -> str:
    """Whether the host will run what is at ``path``: "will run", or "WILL NOT RUN" and
    why (from `doctor`'s reading, without its probe)."""
    problems = [p for w in found if w.file == path for p in w.problems]
    if problems:
        return "status: WILL NOT RUN: " + "; ".join(problems)
    return "status: will run"


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``opencode install`` or ``uninstall``; the exit code."""
    project = Path(args.project).absolute()
    base, path = plugin_place(project, args.global_)
    try:
        if args.action == "uninstall":
            report = uninstall_opencode(base, path)
            out.write(
                host_install.removed_line(
                    report.changed, report.path, "no amplifier-hooks plugin at"
                )
            )
            return 0
        bundle = Path(args.bundle).expanduser().absolute()
        handled = asyncio.run(host_install.handled_events(bundle))
        plan = OpenCodePlan(
            bundle,
            RELAY_PROTOCOL,
            TOKEN_ENV,
            str(default_token_path()),
            url=args.url,
            after="tool:post" in handled,
        )
        report = install_opencode(base, path, plan)
    except SettingsError as exc:
        err.write(f"error: {exc}\n")
        return 2
    how = f"asking {args.url}" if args.url else "asking the workspace's hook server"
    out.write(host_install.installed_line(report.changed, report.path, f" ({how})"))
    found = opencode_wirings(project, dict(os.environ), send_probe=False)
    out.write(status_line(found, path) + "\n")
    out.write("".join(f"unguarded: {line}\n" for line in UNGUARDED))
    return 0
