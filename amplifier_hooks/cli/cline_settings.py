"""``amplifier-hooks cline install|uninstall``: our hook files in a workspace's
``.cline/hooks/`` (``--global``: ``~/.cline/hooks/``); see
`amplifier_hooks.hosts.cline.install`.

``install`` wires PreToolUse and the other Cline events the bundle's handlers listen to,
and ends with one status line: whether Cline will run them ("WILL NOT RUN" and why).
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import IO

from amplifier_hooks.cli import host_install
from amplifier_hooks.cli.opencode_settings import status_line
from amplifier_hooks.hosts.claude_code.install import SettingsError, hook_events
from amplifier_hooks.hosts.cline import CLINE_DIALECT
from amplifier_hooks.hosts.cline.doctor import cline_wirings
from amplifier_hooks.hosts.cline.install import (
    ClinePlan,
    hooks_folder,
    install_cline,
    uninstall_cline,
)

__all__ = ["COMMAND", "run"]

PROJECT_HELP = "the workspace whose .cline/hooks/ to change (default: the current directory)"
GLOBAL_HELP = "the user's ~/.cline/hooks/ instead: every workspace is guarded"


COMMAND = host_install.InstallCommand(
    install="guard Cline with a bundle (hook files in .cline/hooks/)",
    install_description="Write one hook file per Cline event the bundle listens to "
    "(PreToolUse always) into .cline/hooks/ (--global: ~/.cline/hooks/), each naming its "
    "bundle (Cline runs hooks in its hub daemon's environment) and answering a deny when "
    "our process fails, well before Cline's 120 s kill. The user's hook files are not "
    "touched; running it again changes nothing.",
    uninstall="take our hook files out of Cline",
    uninstall_description="Remove the hook files 'install' wrote, and the folders it made "
    "for them if they are empty; everything else stays.",
    url=host_install.served_url_help("cline"),
    places=host_install.workspace_places(PROJECT_HELP, GLOBAL_HELP),
)


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``cline install`` or ``uninstall``; the exit code."""
    project = Path(args.project).absolute()
    home = Path(os.environ.get("HOME") or Path.home())
    base, folder = hooks_folder(project, args.global_, home)
    try:
        if args.action == "uninstall":
            report = uninstall_cline(base, folder)
            out.write(host_install.removed_line(report.changed, folder))
            return 0
        bundle = Path(args.bundle).expanduser().absolute()
        events = hook_events([*await_events(bundle), "tool:pre"], CLINE_DIALECT)
        report = install_cline(base, folder, ClinePlan(bundle, events, url=args.url))
    except SettingsError as exc:
        err.write(f"error: {exc}\n")
        return 2
    names = ", ".join(path.name for path in report.files)
    out.write(host_install.installed_line(report.changed, folder, f": {names}"))
    found = cline_wirings(project, dict(os.environ), send_probe=False)
    out.write(status_line(found, folder) + "\n")
    return 0


def await_events(bundle: Path) -> list[str]:
    """Our events ``bundle``'s handlers listen to."""
    return asyncio.run(host_install.handled_events(bundle))
