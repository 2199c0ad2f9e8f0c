"""What every ``<host> install|uninstall`` command shares: its two parsers, the events a
bundle needs, and the lines that say what changed and whether the host will run it.

Each host's own module (``claude_settings``, ``codex_settings`` …) keeps what is the host's:
its `InstallCommand` record (help and options), where its file is and the plan it writes.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.install_status import (
    add_allow_empty,
    bundle_note,
    check_not_empty,
    will_not_run,
)
from amplifier_hooks.hosts.claude_code.install import hook_events
from amplifier_hooks.hosts.dialect import CLAUDE_CODE_DIALECT, Dialect
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.web.tokens import TOKEN_ENV

__all__ = [
    "BundleEvents",
    "InstallCommand",
    "Place",
    "add_install_parsers",
    "bundle_events",
    "handled_events",
    "installed_line",
    "project_or_home",
    "removed_line",
    "served_url_help",
    "status_lines",
    "workspace_places",
]

UNINSTALL_DESCRIPTION = "Remove the hooks 'install' added; everything else stays."


class Place(NamedTuple):
    """An option both commands take: where they act (``--project DIR`` …)."""

    flag: str
    options: Mapping[str, Any]


def workspace_places(project_help: str, global_help: str) -> tuple[Place, Place]:
    """``--project DIR`` (default: this folder) and ``--global`` (the user's own place
    instead, ``args.global_``): for a host whose files sit in a workspace or the home."""
    return (
        Place("--project", {"default": ".", "metavar": "DIR", "help": project_help}),
        Place("--global", {"dest": "global_", "action": "store_true", "help": global_help}),
    )


def project_or_home(project_help: str) -> Place:
    """``--project [DIR]``: a project's file (DIR, default this folder) instead of the
    user's (``args.project`` None)."""
    return Place("--project", {"nargs": "?", "const": ".", "metavar": "DIR", "help": project_help})


class InstallCommand(NamedTuple):
    """A host's ``install`` and ``uninstall`` as ``--help`` shows them, and their options."""

    install: str
    install_description: str
    uninstall: str
    uninstall_description: str = UNINSTALL_DESCRIPTION
    bundle_option_only: bool = False
    """The bundle only as ``--bundle BUNDLE`` (else `add_bundle_argument`'s two forms)."""
    url: str | None = None
    """The help of ``--url``, for a host that can ask a running server."""
    places: tuple[Place, ...] = ()
    allow_empty: bool = False
    """Whether an empty bundle is refused unless ``--allow-empty``."""


def served_url_help(route: str) -> str:
    """``--url``'s help for a host that asks ``serve`` at one of its routes."""
    return (
        f"ask a running 'amplifier-hooks serve' at URL (its /{route} route), with the "
        f"token from ${TOKEN_ENV} or the server's token file"
    )


def add_install_parsers(
    actions: Any, common: argparse.ArgumentParser, command: InstallCommand
) -> list[argparse.ArgumentParser]:
    """The ``install`` and ``uninstall`` parsers of ``command``, with their options."""
    install = actions.add_parser(
        "install",
        parents=[common],
        help=command.install,
        description=command.install_description,
    )
    if command.bundle_option_only:
        install.add_argument("--bundle", required=True, metavar="BUNDLE", help="bundle file")
    else:
        add_bundle_argument(install)
    if command.url is not None:
        install.add_argument("--url", metavar="URL", help=command.url)
    uninstall = actions.add_parser(
        "uninstall",
        parents=[common],
        help=command.uninstall,
        description=command.uninstall_description,
    )
    for place in command.places:
        install.add_argument(place.flag, **place.options)
        uninstall.add_argument(place.flag, **place.options)
    if command.allow_empty:
        add_allow_empty(install)
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
