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
from typing import IO, Any

from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.host_install import (
    InstallHelp,
    add_install_parsers,
    add_to_both,
    handled_events,
    installed_line,
    removed_line,
)
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
from amplifier_hooks.web.tokens import TOKEN_ENV

__all__ = ["add_parsers", "run"]

PROJECT_HELP = "the workspace whose .cline/hooks/ to change (default: the current directory)"
GLOBAL_HELP = "the user's ~/.cline/hooks/ instead: every workspace is guarded"


HELP = InstallHelp(
    install="guard Cline with a bundle (hook files in .cline/hooks/)",
    install_description="Write one hook file per Cline event the bundle listens to "
    "(PreToolUse always) into .cline/hooks/ (--global: ~/.cline/hooks/), each naming its "
    "bundle (Cline runs hooks in its hub daemon's environment) and answering a deny when "
    "our process fails, well before Cline's 120 s kill. The user's hook files are not "
    "touched; running it again changes nothing.",
    uninstall="take our hook files out of Cline",
    uninstall_description="Remove the hook files 'install' wrote, and the folders it made "
    "for them if they are empty; everything else stays.",
)


def add_parsers(actions: Any, common: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Add ``install`` and ``uninstall`` under ``cline``."""
    install, uninstall = add_install_parsers(actions, common, HELP)
    add_bundle_argument(install)
    install.add_argument(
        "--url",
        metavar="URL",
        help="ask a running 'amplifier-hooks serve' at URL (its /cline route), with the "
        f"token from ${TOKEN_ENV} or the server's token file",
    )
    add_to_both((install, uninstall), "--project", default=".", metavar="DIR", help=PROJECT_HELP)
    add_to_both(
        (install, uninstall), "--global", dest="global_", action="store_true", help=GLOBAL_HELP
    )
    return [install, uninstall]


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``cline install`` or ``uninstall``; the exit code."""
    project = Path(args.project).absolute()
    home = Path(os.environ.get("HOME") or Path.home())
    base, folder = hooks_folder(project, args.global_, home)
    try:
        if args.action == "uninstall":
            report = uninstall_cline(base, folder)
            out.write(removed_line(report.changed, folder))
            return 0
        bundle = Path(args.bundle).expanduser().absolute()
        events = hook_events([*await_events(bundle), "tool:pre"], CLINE_DIALECT)
        report = install_cline(base, folder, ClinePlan(bundle, events, url=args.url))
    except SettingsError as exc:
        err.write(f"error: {exc}\n")
        return 2
    names = ", ".join(path.name for path in report.files)
    out.write(installed_line(report.changed, folder, f": {names}"))
    found = cline_wirings(project, dict(os.environ), send_probe=False)
    out.write(status_line(found, folder) + "\n")
    return 0


def await_events(bundle: Path) -> list[str]:
    """Our events ``bundle``'s handlers listen to."""
    return asyncio.run(handled_events(bundle))
