"""``amplifier-hooks codex install|uninstall``: our hooks in Codex's hooks.json, trusted.

``install`` wires the Codex events the bundle's handlers listen to (plus SessionEnd) in
``$CODEX_HOME/hooks.json`` (or, with ``--project``, the project's .codex/hooks.json),
records each hook's hash as trusted in ``$CODEX_HOME/config.toml``, and ends with one
status line that says whether Codex will run them. See
`amplifier_hooks.hosts.codex.install`.
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
from amplifier_hooks.hosts.codex import CODEX_DIALECT
from amplifier_hooks.hosts.codex.install import (
    CodexPlaces,
    CodexPlan,
    InstallReport,
    install_codex,
    uninstall_codex,
)

__all__ = ["add_parsers", "run", "status_line"]


def add_parsers(actions: Any, common: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Add ``install`` and ``uninstall`` under ``codex``."""
    project_help = (
        "the project's .codex/hooks.json (default: $CODEX_HOME/hooks.json, read in every "
        "project); Codex reads a project's hooks only when it trusts the project"
    )
    install = actions.add_parser(
        "install",
        parents=[common],
        help="wire a bundle into Codex's hooks.json and trust the hooks",
        description="Merge hooks that run BUNDLE into Codex's hooks.json, for the events "
        "the bundle's modules listen to (and SessionEnd), and record them as trusted in "
        "$CODEX_HOME/config.toml. Keeps every other hook; running it again changes "
        "nothing.",
    )
    install.add_argument("--bundle", required=True, metavar="BUNDLE", help="bundle file")
    add_allow_empty(install)
    install.add_argument(
        "--project", nargs="?", const=".", metavar="DIR", default=None, help=project_help
    )
    uninstall = actions.add_parser(
        "uninstall",
        parents=[common],
        help="take our hooks (and their trust) out of Codex's files",
        description="Remove the hooks 'install' added and their trust entries; everything "
        "else stays.",
    )
    uninstall.add_argument(
        "--project", nargs="?", const=".", metavar="DIR", default=None, help=project_help
    )
    return [install, uninstall]


def status_line(report: InstallReport, places: CodexPlaces) -> str:
    """One line: will Codex run our hooks, and if not, what to do."""
    untrusted = [h for h in report.hooks if h.status != "trusted"]
    if not report.hooks:
        return "status: no amplifier-hooks hooks are installed for Codex here"
    if untrusted:
        names = ", ".join(sorted({h.event for h in untrusted}))
        return (
            f"status: UNTRUSTED: Codex skips these hooks without a word ({names}); trust "
            f"them in Codex's /hooks, or run `amplifier-hooks codex install` again"
        )
    if report.project_trusted is False:
        assert places.project is not None
        return (
            f"status: NOT RUN: Codex reads {places.hooks_file} only in a project it "
            f'trusts; add [projects.{_quoted(places.project)}] trust_level = "trusted" '
            f"to {places.config_file} (or trust the folder when Codex asks)"
        )
    return f"status: trusted: Codex will run {len(report.hooks)} amplifier-hooks hook(s)"


def _quoted(path: Path) -> str:
    import json

    return json.dumps(str(path))


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run ``codex install`` or ``uninstall``; the exit code."""
    project = Path(args.project) if args.project is not None else None
    places = CodexPlaces.find(project)
    try:
        if args.action == "uninstall":
            bundles = bundles_in(places.hooks_file)
            report = uninstall_codex(places)
            out.write(
                f"removed amplifier-hooks from {places.hooks_file}\n"
                if report.hooks_changed or report.trust_changed
                else f"no amplifier-hooks hooks in {places.hooks_file}; nothing changed\n"
            )
            stop_started_servers(bundles, places.project, out)
        else:
            bundle = Path(args.bundle).expanduser().absolute()
            handled = asyncio.run(handled_events(bundle))
            check_not_empty(bundle, handled, args.allow_empty)
            events = hook_events(handled, CODEX_DIALECT)
            report = install_codex(places, CodexPlan(bundle, events))
            if report.hooks_changed or report.trust_changed:
                out.write(
                    f"installed amplifier-hooks in {places.hooks_file} (trust in "
                    f"{places.config_file}): {', '.join(events)}\n"
                )
            else:
                out.write(f"amplifier-hooks is already installed in {places.hooks_file}\n")
            workspace = places.project or Path().absolute()
            status = will_not_run("codex", places.hooks_file, workspace)
            out.write((status or status_line(report, places)) + "\n")
            if (note := bundle_note(bundle, handled)) is not None:
                out.write(note + "\n")
    except (SettingsError, EmptyBundleError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    if report.moved:
        err.write(
            "warning: your own hooks moved in the file, so Codex asks to trust them again: "
            + ", ".join(report.moved)
            + "\n"
        )
    return 0
