"""``amplifier-hooks codex install|uninstall``: our hooks in Codex's hooks.json, trusted.

``install`` wires the Codex events the bundle's handlers listen to (plus SessionEnd) in
``$CODEX_HOME/hooks.json`` (or, with ``--project``, the project's .codex/hooks.json),
records each hook's hash as trusted in ``$CODEX_HOME/config.toml``, and ends with one
status line that says whether Codex will run them. See
`amplifier_hooks.hosts.codex.install`.
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
from amplifier_hooks.hosts.codex import CODEX_DIALECT
from amplifier_hooks.hosts.codex.install import (
    CodexPlaces,
    CodexPlan,
    InstallReport,
    install_codex,
    uninstall_codex,
)

__all__ = ["COMMAND", "run", "status_line"]


PROJECT_HELP = (
    "the project's .codex/hooks.json (default: $CODEX_HOME/hooks.json, read in every "
    "project); Codex reads a project's hooks only when it trusts the project"
)


COMMAND = host_install.InstallCommand(
    install="wire a bundle into Codex's hooks.json and trust the hooks",
    install_description="Merge hooks that run BUNDLE into Codex's hooks.json, for the events "
    "the bundle's modules listen to (and SessionEnd), and record them as trusted in "
    "$CODEX_HOME/config.toml. Keeps every other hook; running it again changes "
    "nothing.",
    uninstall="take our hooks (and their trust) out of Codex's files",
    uninstall_description="Remove the hooks 'install' added and their trust entries; "
    "everything else stays.",
    bundle_option_only=True,
    places=(host_install.project_or_home(PROJECT_HELP),),
    allow_empty=True,
)


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
            changed = report.hooks_changed or report.trust_changed
            out.write(host_install.removed_line(changed, places.hooks_file))
            stop_started_servers(bundles, places.project, out)
        else:
            wired = host_install.bundle_events(args, CODEX_DIALECT)
            report = install_codex(places, CodexPlan(wired.bundle, wired.events))
            if report.hooks_changed or report.trust_changed:
                out.write(
                    f"installed amplifier-hooks in {places.hooks_file} (trust in "
                    f"{places.config_file}): {', '.join(wired.events)}\n"
                )
            else:
                out.write(f"amplifier-hooks is already installed in {places.hooks_file}\n")
            workspace = places.project or Path().absolute()
            installed = report
            status = host_install.status_lines(
                "codex",
                places.hooks_file,
                workspace,
                lambda: status_line(installed, places),
                wired,
            )
            out.write(status)
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
