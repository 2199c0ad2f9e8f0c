"""The commands of ``amplifier-hooks``: each one's name, its line in ``--help``, and the
module that defines its arguments and runs it.

``amplifier-hooks --help`` is built from this table alone, and a command's module is
imported only when that command is chosen (`amplifier_hooks.cli.parser`): a command pays
for what it uses, and ``--help`` for argparse.
"""

from __future__ import annotations

import argparse
from typing import Any, NamedTuple

from amplifier_hooks.host_commands import HOST_COMMANDS

__all__ = ["COMMANDS", "Command", "add_command", "command_named", "summary"]


class Command(NamedTuple):
    """One command of the CLI."""

    name: str
    help: str
    """Its line in the top-level ``--help``."""
    module: str
    """The module with its ``add_parser`` (a host's: ``add_host_parsers``)."""


def _cli(module: str) -> str:
    return f"amplifier_hooks.cli.{module}"


_HOST_MODULE = _cli("claude_code")

COMMANDS: tuple[Command, ...] = (
    Command("run", "replay a session trace through a bundle", _cli("run_arguments")),
    Command("check", "validate a bundle and list its handlers", _cli("check")),
    Command("events", "list standard and contributed events", _cli("events")),
    Command("approvals", "list or forget remembered approval decisions", _cli("approvals")),
    Command(
        "approve",
        "answer approval requests queued by agents (the approver's console)",
        _cli("approve"),
    ),
    *(
        Command(host, f"answer {host}'s hooks with a bundle (install, uninstall)", _HOST_MODULE)
        for host in HOST_COMMANDS
    ),
    Command("serve", "answer Claude Code's HTTP hooks with a bundle", _cli("serve")),
    Command("mcp", "guard an MCP server for any MCP client (wrap, unwrap)", _cli("mcp")),
    Command(
        "doctor", "say what is wired into each agent CLI and whether it will run", _cli("doctor")
    ),
    Command("test", "show what a bundle decides about a tool call, running nothing", _cli("test")),
    Command("bench", "score a bundle on corpora of tool calls", _cli("bench")),
)

_BY_NAME = {command.name: command for command in COMMANDS}


def command_named(name: str) -> Command | None:
    """The command called ``name``; None if there is none."""
    return _BY_NAME.get(name)


def summary(name: str) -> str:
    """The ``--help`` line of the command ``name`` (each module's parser uses it too)."""
    return _BY_NAME[name].help


def add_command(
    commands: Any, common: argparse.ArgumentParser, name: str, description: str, **more: Any
) -> argparse.ArgumentParser:
    """Add the command ``name`` to ``commands`` (argparse's subparsers): the options every
    command shares (``common``), its ``--help`` line from the table above and
    ``description``; ``more`` goes to argparse as it is. Its parser."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, parents=[common], help=summary(name), description=description, **more
    )
    return parser
