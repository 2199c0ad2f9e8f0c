"""``amplifier-hooks copilot install|uninstall``: our hooks in a project's
``.github/hooks/amplifier-hooks.json`` (see `amplifier_hooks.hosts.copilot.install`).

``install`` wires the Copilot CLI events the bundle's handlers listen to (plus
sessionEnd) and ends with one status line saying what Copilot needs to run them.
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
from amplifier_hooks.hosts.copilot import COPILOT_DIALECT
from amplifier_hooks.hosts.copilot.install import (
    HOOKS_FILE,
    CopilotPlan,
    install_copilot,
    uninstall_copilot,
)

__all__ = ["add_parsers", "run"]

PROJECT_HELP = (
    f"the project whose {HOOKS_FILE} to change (default: the current directory, where "
    "Copilot CLI looks for .github/hooks)"
)


def add_parsers(actions: Any, common: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Add ``install`` and ``uninstall`` under ``copilot``."""
    install = actions.add_parser(
        "install",
        parents=[common],
        help=f"wire a bundle into Copilot CLI ({HOOKS_FILE})",
        description=f"Write hooks that run BUNDLE into {HOOKS_FILE}, for the events the "
        "bundle's modules listen to (and sessionEnd), each naming its event, fail-closed "
        "on the events that guard. Other hook files are not touched; running it again "
        "changes nothing. Copilot CLI runs them only in a trusted folder (--trust-folder "
        "with -p).",
    )
    install.add_argument("--bundle", required=True, metavar="BUNDLE", help="bundle file")
    install.add_argument("--project", default=".", metavar="DIR", help=PROJECT_HELP)
    add_allow_empty(install)
    uninstall = actions.add_parser(
        "uninstall",
        parents=[common],
        help=f"take our hooks out of {HOOKS_FILE}",
        description="Remove the hooks 'install' added; everything else stays.",
    )
    uninstall.add_argument("--project", default=".", metavar="DIR", help=PROJECT_HELP)
    return [install, uninstall]


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``copilot install`` or ``uninstall``; the exit code."""
    project = Path(args.project).absolute()
    try:
        if args.action == "uninstall":
            bundles = bundles_in(project / HOOKS_FILE)
            report = uninstall_copilot(project)
            out.write(
                f"removed amplifier-hooks from {report.path}\n"
                if report.changed
                else f"no amplifier-hooks hooks in {report.path}; nothing changed\n"
            )
            stop_started_servers(bundles, project, out)
            return 0
        bundle = Path(args.bundle).expanduser().absolute()
        handled = asyncio.run(handled_events(bundle))
        check_not_empty(bundle, handled, args.allow_empty)
        events = hook_events(handled, COPILOT_DIALECT)
        report = install_copilot(project, CopilotPlan(bundle, events))
    except (SettingsError, EmptyBundleError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    if report.changed:
        out.write(f"installed amplifier-hooks in {report.path}: {', '.join(events)}\n")
    else:
        out.write(f"amplifier-hooks is already installed in {report.path}; nothing changed\n")
    out.write((will_not_run("copilot", report.path, project) or report.status()) + "\n")
    if (note := bundle_note(bundle, handled)) is not None:
        out.write(note + "\n")
    return 0
