"""``amplifier-hooks claude-code install|uninstall``: our hooks in Claude Code's settings.

``install`` wires the Claude Code events the bundle's handlers listen to (found by
mounting the bundle, as ``check`` does), plus SessionEnd; see
`amplifier_hooks.hosts.claude_code.install` for how the file is changed.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO

from amplifier_hooks.cli import host_install
from amplifier_hooks.cli.install_status import (
    EmptyBundleError,
    bundle_note,
    will_not_run,
)
from amplifier_hooks.cli.project_root import project_root
from amplifier_hooks.cli.stopping import bundles_in, stop_started_servers
from amplifier_hooks.hosts.claude_code.install import (
    DEFAULT_SETTINGS,
    InstallPlan,
    SettingsError,
    install_hooks,
    uninstall_hooks,
)

__all__ = ["COMMAND", "run"]


SETTINGS_HELP = (
    f"the settings file to change (default: {DEFAULT_SETTINGS} at the project root: "
    "$CLAUDE_PROJECT_DIR, else the git root, else this folder)"
)


COMMAND = host_install.InstallCommand(
    install="wire a bundle into Claude Code's settings",
    install_description="Merge hooks that run BUNDLE into Claude Code's settings, for the "
    "events the bundle's modules listen to (and SessionEnd). Keeps every other setting and "
    "hook; running it again changes nothing.",
    uninstall="take our hooks out of Claude Code's settings",
    url="HTTP hooks to this URL ('amplifier-hooks serve'), with the bearer token "
    "from $AMPLIFIER_HOOKS_TOKEN; default: command hooks",
    places=(host_install.Place("--settings", {"metavar": "FILE", "help": SETTINGS_HELP}),),
    allow_empty=True,
)


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``claude-code install`` or ``uninstall``; the exit code."""
    root, why = project_root()
    if args.settings:
        path, where = Path(args.settings), ""
    else:
        path, where = root / DEFAULT_SETTINGS, f" ({why}; --settings FILE writes elsewhere)"
    place = f"{path}{where}"
    try:
        if args.action == "uninstall":
            bundles = bundles_in(path)
            out.write(host_install.removed_line(uninstall_hooks(path), place))
            stop_started_servers(bundles, root, out)
            return 0
        wired = host_install.bundle_events(args)
        changed = install_hooks(path, InstallPlan(wired.bundle, wired.events, url=args.url))
    except (SettingsError, EmptyBundleError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    how = f"HTTP hooks to {args.url}" if args.url else "command hooks"
    out.write(host_install.installed_line(changed, place, f" ({how}): {', '.join(wired.events)}"))
    if (status := will_not_run("claude-code", path, root)) is not None:
        out.write(status + "\n")
    if (note := bundle_note(wired.bundle, wired.handled)) is not None:
        out.write(note + "\n")
    return 0
