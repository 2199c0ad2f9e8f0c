"""``amplifier-hooks claude-code install|uninstall``: our hooks in Claude Code's settings.

``install`` wires the Claude Code events the bundle's handlers listen to (found by
mounting the bundle, as ``check`` does), plus SessionEnd; see
`amplifier_hooks.hosts.claude_code.install` for how the file is changed.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import IO, Any

from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.install_status import (
    EmptyBundleError,
    add_allow_empty,
    bundle_note,
    check_not_empty,
    will_not_run,
)
from amplifier_hooks.cli.project_root import project_root
from amplifier_hooks.cli.stopping import bundles_in, stop_started_servers
from amplifier_hooks.hosts.claude_code.install import (
    DEFAULT_SETTINGS,
    InstallPlan,
    SettingsError,
    hook_events,
    install_hooks,
    uninstall_hooks,
)
from amplifier_hooks.session.coordinator import Coordinator

__all__ = ["add_parsers", "bundle_events", "handled_events", "run"]


def add_parsers(actions: Any, common: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Add ``install`` and ``uninstall`` under ``claude-code``."""
    settings_help = (
        f"the settings file to change (default: {DEFAULT_SETTINGS} at the project root: "
        "$CLAUDE_PROJECT_DIR, else the git root, else this folder)"
    )
    install = actions.add_parser(
        "install",
        parents=[common],
        help="wire a bundle into Claude Code's settings",
        description="Merge hooks that run BUNDLE into Claude Code's settings, for the events "
        "the bundle's modules listen to (and SessionEnd). Keeps every other setting and "
        "hook; running it again changes nothing.",
    )
    add_bundle_argument(install)
    install.add_argument(
        "--url",
        metavar="URL",
        help="HTTP hooks to this URL ('amplifier-hooks serve'), with the bearer token "
        "from $AMPLIFIER_HOOKS_TOKEN; default: command hooks",
    )
    install.add_argument("--settings", metavar="FILE", help=settings_help)
    add_allow_empty(install)
    uninstall = actions.add_parser(
        "uninstall",
        parents=[common],
        help="take our hooks out of Claude Code's settings",
        description="Remove the hooks 'install' added; everything else stays.",
    )
    uninstall.add_argument("--settings", metavar="FILE", help=settings_help)
    return [install, uninstall]


async def handled_events(bundle: Path) -> list[str]:
    """The events ``bundle``'s handlers listen to (mounts it once, then unmounts)."""
    # Nothing is asked here: no provider (a queue provider would warn that its
    # questions sit in this in-process store) and no store of the person's opened.
    coordinator = await Coordinator.from_bundle(
        bundle, approval_store=":memory:", approval_provider=None
    )
    try:
        return list(coordinator.hooks.list_handlers())
    finally:
        await coordinator.cleanup()


async def bundle_events(bundle: Path) -> tuple[str, ...]:
    """The Claude Code events to wire for ``bundle``."""
    return hook_events(await handled_events(bundle))


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``claude-code install`` or ``uninstall``; the exit code."""
    import asyncio

    root, why = project_root()
    if args.settings:
        path, where = Path(args.settings), ""
    else:
        path, where = root / DEFAULT_SETTINGS, f" ({why}; --settings FILE writes elsewhere)"
    try:
        if args.action == "uninstall":
            bundles = bundles_in(path)
            changed = uninstall_hooks(path)
            out.write(
                f"removed amplifier-hooks from {path}{where}\n"
                if changed
                else f"no amplifier-hooks hooks in {path}{where}; nothing changed\n"
            )
            stop_started_servers(bundles, root, out)
            return 0
        bundle = Path(args.bundle).expanduser().absolute()
        handled = asyncio.run(handled_events(bundle))
        check_not_empty(bundle, handled, args.allow_empty)
        events = hook_events(handled)
        plan = InstallPlan(bundle, events, url=args.url)
        changed = install_hooks(path, plan)
    except (SettingsError, EmptyBundleError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    how = f"HTTP hooks to {args.url}" if args.url else "command hooks"
    if changed:
        out.write(f"installed amplifier-hooks in {path}{where} ({how}): {', '.join(events)}\n")
    else:
        out.write(f"amplifier-hooks is already installed in {path}{where}; nothing changed\n")
    if (status := will_not_run("claude-code", path, root)) is not None:
        out.write(status + "\n")
    if (note := bundle_note(bundle, handled)) is not None:
        out.write(note + "\n")
    return 0
