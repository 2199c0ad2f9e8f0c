"""``amplifier-hooks openclaw install|uninstall|socket``: our plugin in OpenClaw.

``install`` writes the plugin into ``~/.openclaw/amplifier-hooks/plugin`` and wires it
into ``~/.openclaw/openclaw.json`` (home-level only), keeping every byte of the user's
own text; see `amplifier_hooks.hosts.openclaw.install`. ``socket`` is for the plugin: the
path of the workspace server it talks to once that server runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import IO, Any

from amplifier_hooks.cli import host_install
from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.openclaw.install import (
    OpenClawPlaces,
    OpenClawPlan,
    hook_budget_ms,
    install_openclaw,
    plan_events,
    uninstall_openclaw,
)
from amplifier_hooks.hosts.openclaw.node import node_problem

__all__ = ["add_parsers", "run"]


COMMAND = host_install.InstallCommand(
    install="write our OpenClaw plugin and wire it into ~/.openclaw/openclaw.json",
    install_description="Write a native OpenClaw plugin that asks BUNDLE about every tool "
    "call, and wire it into ~/.openclaw/openclaw.json ($OPENCLAW_STATE_DIR, "
    "$OPENCLAW_CONFIG_PATH) by inserting text: comments and every other byte of the "
    "file stay. Running it again changes nothing.",
    uninstall="take our plugin out of OpenClaw",
    uninstall_description="Remove what 'install' added to openclaw.json, and the plugin's "
    "folder. A file nobody changed since is byte for byte what install found.",
    url="ask the 'amplifier-hooks serve' at URL (http://127.0.0.1:8419/openclaw), "
    "with the token from OpenClaw's $AMPLIFIER_HOOKS_TOKEN or serve's token file; "
    "default: the workspace's own server on a Unix socket, started on first use",
)


def add_parsers(actions: Any, common: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Add ``install``, ``uninstall`` and ``socket`` under ``openclaw``."""
    install, uninstall = host_install.add_install_parsers(actions, common, COMMAND)
    socket = actions.add_parser(
        "socket",
        parents=[common],
        help=argparse.SUPPRESS,
        description="Print the socket of the server for BUNDLE in WORKSPACE (the plugin "
        "asks this once).",
    )
    add_bundle_argument(socket)
    socket.add_argument("--workspace", required=True, metavar="DIR")
    return [install, uninstall, socket]


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``openclaw install``, ``uninstall`` or ``socket``; the exit code."""
    if args.action == "socket":
        from amplifier_hooks.transports.relay.place import socket_path

        bundle = os.path.abspath(args.bundle)
        out.write(socket_path(bundle, os.path.abspath(args.workspace)) + "\n")
        return 0
    places = OpenClawPlaces.find()
    try:
        if args.action == "uninstall":
            report = uninstall_openclaw(places)
            nothing = "amplifier-hooks is not installed in"
            out.write(host_install.removed_line(report.changed, places.config, nothing))
            return 0
        bundle = Path(args.bundle).expanduser().absolute()
        events = plan_events(asyncio.run(host_install.handled_events(bundle)))
        token_file = None
        if args.url:
            from amplifier_hooks.web.tokens import default_token_path

            token_file = default_token_path()
        plan = OpenClawPlan(bundle, events, hook_budget_ms(bundle), args.url, token_file)
        report = install_openclaw(places, plan)
    except SettingsError as exc:
        err.write(f"error: {exc}\n")
        return 2
    how = f"asking {args.url}" if args.url else "asking the workspace's server"
    detail = (
        f" ({how}; plugin in {places.plugin}): {', '.join(events)}; OpenClaw waits up to "
        f"{plan.budget_ms / 1000:g} s for an answer"
    )
    out.write(host_install.installed_line(report.changed, places.config, detail))
    node = node_problem()
    problems = (*report.problems, *((node,) if node else ()))
    if problems:
        out.write("status: WILL NOT RUN: " + "; ".join(problems) + "\n")
    else:
        out.write(report.status() + "\n")
    return 0
