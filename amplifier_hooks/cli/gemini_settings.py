"""``amplifier-hooks gemini install|uninstall``: our hooks in Gemini CLI's settings.json.

``install`` wires the Gemini CLI events the bundle's handlers listen to (plus
SessionEnd) in ``~/.gemini/settings.json`` (or, with ``--project``, the project's
.gemini/settings.json), and ends with one status line that says whether Gemini CLI will
run them. See `amplifier_hooks.hosts.gemini.install`.
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
from amplifier_hooks.hosts.gemini import GEMINI_DIALECT
from amplifier_hooks.hosts.gemini.install import (
    GeminiPlan,
    gemini_settings_path,
    install_gemini,
    uninstall_gemini,
)

__all__ = ["COMMAND", "run"]

PROJECT_HELP = (
    "the project's .gemini/settings.json (default: ~/.gemini/settings.json, read in every "
    "folder); Gemini CLI loads a project's hooks only in a trusted folder, not under "
    "--skip-trust"
)


COMMAND = host_install.InstallCommand(
    install="wire a bundle into Gemini CLI's settings.json",
    install_description="Merge hooks that run BUNDLE into Gemini CLI's settings.json, for the "
    "events the bundle's modules listen to (and SessionEnd), with timeouts in "
    "milliseconds and a fail-closed command on the events that guard. Keeps every "
    "other setting and hook; running it again changes nothing.",
    uninstall="take our hooks out of Gemini CLI's settings.json",
    bundle_option_only=True,
    places=(host_install.project_or_home(PROJECT_HELP),),
    allow_empty=True,
)


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``gemini install`` or ``uninstall``; the exit code."""
    project = Path(args.project) if args.project is not None else None
    path = gemini_settings_path(project)
    try:
        if args.action == "uninstall":
            bundles = bundles_in(path)
            report = uninstall_gemini(path, project=project is not None)
            out.write(host_install.removed_line(report.changed, path))
            stop_started_servers(bundles, None if project is None else project.absolute(), out)
            return 0
        wired = host_install.bundle_events(args, GEMINI_DIALECT)
        plan = GeminiPlan(wired.bundle, wired.events)
        report = install_gemini(path, plan, project=project is not None)
    except (SettingsError, EmptyBundleError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    out.write(host_install.installed_line(report.changed, path, f": {', '.join(wired.events)}"))
    workspace = (project or Path()).absolute()
    out.write(host_install.status_lines("gemini", path, workspace, report.status, wired))
    return 0
