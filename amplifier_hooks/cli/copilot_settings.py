"""``amplifier-hooks copilot install|uninstall``: our hooks in a project's
``.github/hooks/amplifier-hooks.json`` (see `amplifier_hooks.hosts.copilot.install`).

``install`` wires the Copilot CLI events the bundle's handlers listen to (plus
sessionEnd) and ends with one status line saying what Copilot needs to run them.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO

from amplifier_hooks.cli import host_install
from amplifier_hooks.cli.install_status import (
    EmptyBundleError,
)
from amplifier_hooks.cli.stopping import bundles_in, stop_started_servers
from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.copilot import COPILOT_DIALECT
from amplifier_hooks.hosts.copilot.install import (
    HOOKS_FILE,
    CopilotPlan,
    install_copilot,
    uninstall_copilot,
)

__all__ = ["COMMAND", "run"]

PROJECT_HELP = (
    f"the project whose {HOOKS_FILE} to change (default: the current directory, where "
    "Copilot CLI looks for .github/hooks)"
)


COMMAND = host_install.InstallCommand(
    install=f"wire a bundle into Copilot CLI ({HOOKS_FILE})",
    install_description=f"Write hooks that run BUNDLE into {HOOKS_FILE}, for the events the "
    "bundle's modules listen to (and sessionEnd), each naming its event, fail-closed "
    "on the events that guard. Other hook files are not touched; running it again "
    "changes nothing. Copilot CLI runs them only in a trusted folder (--trust-folder "
    "with -p).",
    uninstall=f"take our hooks out of {HOOKS_FILE}",
    bundle_option_only=True,
    places=(
        host_install.Place("--project", {"default": ".", "metavar": "DIR", "help": PROJECT_HELP}),
    ),
    allow_empty=True,
)


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``copilot install`` or ``uninstall``; the exit code."""
    project = Path(args.project).absolute()
    try:
        if args.action == "uninstall":
            bundles = bundles_in(project / HOOKS_FILE)
            report = uninstall_copilot(project)
            out.write(host_install.removed_line(report.changed, report.path))
            stop_started_servers(bundles, project, out)
            return 0
        wired = host_install.bundle_events(args, COPILOT_DIALECT)
        report = install_copilot(project, CopilotPlan(wired.bundle, wired.events))
    except (SettingsError, EmptyBundleError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    out.write(
        host_install.installed_line(report.changed, report.path, f": {', '.join(wired.events)}")
    )
    out.write(host_install.status_lines("copilot", report.path, project, report.status, wired))
    return 0
