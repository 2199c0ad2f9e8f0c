"""``amplifier-hooks gemini install|uninstall``: our hooks in Gemini CLI's settings.json.

``install`` wires the Gemini CLI events the bundle's handlers listen to (plus
SessionEnd) in ``~/.gemini/settings.json`` (or, with ``--project``, the project's
.gemini/settings.json), and ends with one status line that says whether Gemini CLI will
run them. See `amplifier_hooks.hosts.gemini.install`.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import IO, Any

from amplifier_hooks.cli.claude_settings import handled_events
from amplifier_hooks.cli.install_status import (
    EmptyBundleError,
    add_allow_empty,
    bundle_note,
    check_not_empty,
    will_not_run,
)
from amplifier_hooks.cli.stopping import bundles_in, stop_started_servers
from amplifier_hooks.hosts.claude_code.install import SettingsError, hook_events
from amplifier_hooks.hosts.gemini import GEMINI_DIALECT
from amplifier_hooks.hosts.gemini.install import (
    GeminiPlan,
    gemini_settings_path,
    install_gemini,
    uninstall_gemini,
)

__all__ = ["add_parsers", "run"]

PROJECT_HELP = (
    "the project's .gemini/settings.json (default: ~/.gemini/settings.json, read in every "
    "folder); Gemini CLI loads a project's hooks only in a trusted folder, not under "
    "--skip-trust"
)


def add_parsers(actions: Any, common: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Add ``install`` and ``uninstall`` under ``gemini``."""
    install = actions.add_parser(
        "install",
        parents=[common],
        help="wire a bundle into Gemini CLI's settings.json",
        description="Merge hooks that run BUNDLE into Gemini CLI's settings.json, for the "
        "events the bundle's modules listen to (and SessionEnd), with timeouts in "
        "milliseconds and a fail-closed command on the events that guard. Keeps every "
        "other setting and hook; running it again changes nothing.",
    )
    install.add_argument("--bundle", required=True, metavar="BUNDLE", help="bundle file")
    add_allow_empty(install)
    install.add_argument(
        "--project", nargs="?", const=".", metavar="DIR", default=None, help=PROJECT_HELP
    )
    uninstall = actions.add_parser(
        "uninstall",
        parents=[common],
        help="take our hooks out of Gemini CLI's settings.json",
        description="Remove the hooks 'install' added; everything else stays.",
    )
    uninstall.add_argument(
        "--project", nargs="?", const=".", metavar="DIR", default=None, help=PROJECT_HELP
    )
    return [install, uninstall]


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``gemini install`` or ``uninstall``; the exit code."""
    project = Path(args.project) if args.project is not None else None
    path = gemini_settings_path(project)
    try:
        if args.action == "uninstall":
            bundles = bundles_in(path)
            report = uninstall_gemini(path, project=project is not None)
            out.write(
                f"removed amplifier-hooks from {path}\n"
                if report.changed
                else f"no amplifier-hooks hooks in {path}; nothing changed\n"
            )
            stop_started_servers(bundles, None if project is None else project.absolute(), out)
            return 0
        bundle = Path(args.bundle).expanduser().absolute()
        handled = asyncio.run(handled_events(bundle))
        check_not_empty(bundle, handled, args.allow_empty)
        events = hook_events(handled, GEMINI_DIALECT)
        report = install_gemini(path, GeminiPlan(bundle, events), project=project is not None)
    except (SettingsError, EmptyBundleError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    if report.changed:
        out.write(f"installed amplifier-hooks in {path}: {', '.join(events)}\n")
    else:
        out.write(f"amplifier-hooks is already installed in {path}; nothing changed\n")
    workspace = (project or Path()).absolute()
    out.write((will_not_run("gemini", path, workspace) or report.status()) + "\n")
    if (note := bundle_note(bundle, handled)) is not None:
        out.write(note + "\n")
    return 0
