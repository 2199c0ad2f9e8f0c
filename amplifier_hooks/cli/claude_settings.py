"""``amplifier-hooks claude-code install|uninstall``: our hooks in Claude Code's settings.

``install`` wires the Claude Code events the bundle's handlers listen to (found by
mounting the bundle, as ``check`` does), plus SessionEnd; see
`amplifier_hooks.hosts.claude_code.install` for how the file is changed.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO, Any

from amplifier_hooks.hosts.claude_code.install import (
    DEFAULT_SETTINGS,
    InstallPlan,
    SettingsError,
    hook_events,
    install_hooks,
    uninstall_hooks,
)
from amplifier_hooks.session.coordinator import Coordinator

__all__ = ["add_parsers", "bundle_events", "run"]


def add_parsers(actions: Any, common: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Add ``install`` and ``uninstall`` under ``claude-code``."""
    settings_help = f"the settings file to change (default: {DEFAULT_SETTINGS})"
    install = actions.add_parser(
        "install",
        parents=[common],
        help="wire a bundle into Claude Code's settings",
        description="Merge hooks that run BUNDLE into Claude Code's settings, for the events "
        "the bundle's modules listen to (and SessionEnd). Keeps every other setting and "
        "hook; running it again changes nothing.",
    )
    install.add_argument("--bundle", required=True, metavar="BUNDLE", help="bundle file")
    install.add_argument(
        "--url",
        metavar="URL",
        help="HTTP hooks to this URL ('amplifier-hooks serve'), with the bearer token "
        "from $AMPLIFIER_HOOKS_TOKEN; default: command hooks",
    )
    install.add_argument("--settings", metavar="FILE", help=settings_help)
    uninstall = actions.add_parser(
        "uninstall",
        parents=[common],
        help="take our hooks out of Claude Code's settings",
        description="Remove the hooks 'install' added; everything else stays.",
    )
    uninstall.add_argument("--settings", metavar="FILE", help=settings_help)
    return [install, uninstall]


async def bundle_events(bundle: Path) -> tuple[str, ...]:
    """The Claude Code events to wire for ``bundle`` (mounts it once, then unmounts)."""
    coordinator = await Coordinator.from_bundle(bundle, approval_store=":memory:")
    try:
        return hook_events(coordinator.hooks.list_handlers())
    finally:
        await coordinator.cleanup()


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``claude-code install`` or ``uninstall``; the exit code."""
    import asyncio

    path = Path(args.settings) if args.settings else DEFAULT_SETTINGS
    try:
        if args.action == "uninstall":
            changed = uninstall_hooks(path)
            out.write(
                f"removed amplifier-hooks from {path}\n"
                if changed
                else f"no amplifier-hooks hooks in {path}; nothing changed\n"
            )
            return 0
        bundle = Path(args.bundle).expanduser().absolute()
        events = asyncio.run(bundle_events(bundle))
        plan = InstallPlan(bundle, events, url=args.url)
        changed = install_hooks(path, plan)
    except SettingsError as exc:
        err.write(f"error: {exc}\n")
        return 2
    how = f"HTTP hooks to {args.url}" if args.url else "command hooks"
    if changed:
        out.write(f"installed amplifier-hooks in {path} ({how}): {', '.join(events)}\n")
    else:
        out.write(f"amplifier-hooks is already installed in {path}; nothing changed\n")
    return 0
