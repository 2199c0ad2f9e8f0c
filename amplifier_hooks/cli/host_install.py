"""What every ``<host> install|uninstall`` command shares: its two parsers, the events a
bundle needs, and the lines that say what changed and whether the host will run it.

Each host's own module (``claude_settings``, ``codex_settings`` …) keeps what is the host's:
where its file is, the options that find it, and the plan it writes.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from amplifier_hooks.cli.install_status import bundle_note, check_not_empty, will_not_run
from amplifier_hooks.hosts.claude_code.install import hook_events
from amplifier_hooks.hosts.dialect import CLAUDE_CODE_DIALECT, Dialect
from amplifier_hooks.session.coordinator import Coordinator

__all__ = [
    "BundleEvents",
    "InstallHelp",
    "add_install_parsers",
    "add_to_both",
    "bundle_events",
    "handled_events",
    "installed_line",
    "removed_line",
    "status_lines",
]

UNINSTALL_DESCRIPTION = "Remove the hooks 'install' added; everything else stays."


class InstallHelp(NamedTuple):
    """What ``--help`` says of a host's ``install`` and ``uninstall``."""

    install: str
    install_description: str
    uninstall: str
    uninstall_description: str = UNINSTALL_DESCRIPTION


def add_install_parsers(
    actions: Any, common: argparse.ArgumentParser, texts: InstallHelp
) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The ``install`` and ``uninstall`` parsers, without their options."""
    install = actions.add_parser(
        "install", parents=[common], help=texts.install, description=texts.install_description
    )
    uninstall = actions.add_parser(
        "uninstall",
        parents=[common],
        help=texts.uninstall,
        description=texts.uninstall_description,
    )
    return install, uninstall


def add_to_both(parsers: Sequence[argparse.ArgumentParser], *names: str, **options: Any) -> None:
    """The same option on each parser (the place both commands change)."""
    for parser in parsers:
        parser.add_argument(*names, **options)


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


class BundleEvents(NamedTuple):
    """A bundle and what to wire for it."""

    bundle: Path
    handled: list[str]
    """Our events its handlers listen to."""
    events: tuple[str, ...]
    """The host's events to wire."""


def bundle_events(args: argparse.Namespace, dialect: Dialect = CLAUDE_CODE_DIALECT) -> BundleEvents:
    """``args.bundle`` and the ``dialect``'s events it needs; an `EmptyBundleError` for a
    bundle with no handler unless ``--allow-empty``."""
    bundle = Path(args.bundle).expanduser().absolute()
    handled = asyncio.run(handled_events(bundle))
    check_not_empty(bundle, handled, args.allow_empty)
    return BundleEvents(bundle, handled, hook_events(handled, dialect))


def removed_line(changed: bool, where: object, nothing: str = "no amplifier-hooks hooks in") -> str:
    """What ``uninstall`` says it did."""
    if changed:
        return f"removed amplifier-hooks from {where}\n"
    return f"{nothing} {where}; nothing changed\n"


def installed_line(changed: bool, where: object, detail: str) -> str:
    """What ``install`` says it did (``detail`` follows the place when it changed)."""
    if changed:
        return f"installed amplifier-hooks in {where}{detail}\n"
    return f"amplifier-hooks is already installed in {where}; nothing changed\n"


def status_lines(
    host: str, path: Path, workspace: Path, status: Callable[[], str], wired: BundleEvents
) -> str:
    """The status after ``install``: why the host will not run ``path`` (else the host's
    own ``status()``), then what the bundle leaves unguarded, if anything."""
    said = (will_not_run(host, path, workspace) or status()) + "\n"
    note = bundle_note(wired.bundle, wired.handled)
    return said if note is None else said + note + "\n"
