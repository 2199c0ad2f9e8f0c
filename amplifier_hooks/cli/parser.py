"""The command line's parser: every command by name, the chosen one with its arguments.

The top level lists each command from `amplifier_hooks.cli.commands` (its ``--help``
line); only the command being run gets its real arguments, from its own module, so
``--help`` imports no command's module and ``test`` imports none of ``approve``'s.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from typing import Any

from amplifier_hooks.cli.commands import COMMANDS, Command, command_named
from amplifier_hooks.cli.version import installed_version
from amplifier_hooks.host_commands import HOST_COMMANDS

__all__ = ["build_parser", "chosen_command", "parse"]


def chosen_command(argv: Sequence[str]) -> Command | None:
    """The command ``argv`` runs: its first word that is not an option, if that is a
    command's name (only ``-v`` may come before it)."""
    for word in argv:
        if not word.startswith("-"):
            return command_named(word)
        if word == "--":
            return None
    return None


def build_parser(argv: Sequence[str] = (), *, every: bool = False) -> argparse.ArgumentParser:
    """The parser for ``argv``: every command listed, the one it chooses (with ``every``:
    all of them) with its arguments."""
    chosen = chosen_command(argv)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="log more (-v info, -vv debug); logs go to stderr",
    )
    parser = argparse.ArgumentParser(
        prog="amplifier-hooks",
        description="Replay agent sessions through hook bundles; check bundles; list events; "
        "manage remembered approvals.",
    )
    # -v also works before the command (`amplifier-hooks -v check X`); both counts add up.
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, dest="global_verbose", help=argparse.SUPPRESS
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        if every or command == chosen:
            for made in _add_arguments(command, commands, common):
                # Each command remembers its parser, so that a flag it does not know is
                # reported with its own usage rather than the top level's.
                made.set_defaults(command_parser=made)
        else:
            commands.add_parser(command.name, help=command.help)
    return parser


def _add_arguments(
    command: Command, commands: Any, common: argparse.ArgumentParser
) -> list[argparse.ArgumentParser]:
    """Add ``command`` with its arguments, from its module; every parser that made."""
    module = importlib.import_module(command.module)
    made: argparse.ArgumentParser | list[argparse.ArgumentParser]
    if command.name in HOST_COMMANDS:
        made = module.add_host_parsers(commands, common, command.name)
    else:
        made = module.add_parser(commands, common)
    return made if isinstance(made, list) else [made]


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The parsed command line, ``args.bundle`` set from either of its forms; a usage
    error exits (`SystemExit`) with the command's own usage."""
    import sys

    from amplifier_hooks.cli.arguments import resolve_bundle, unknown_arguments

    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words)
    args, unknown = parser.parse_known_args(words)
    if args.command == "test" and unknown[:1] == ["--"]:
        # argparse gives the positionals their words before it reaches an option, so
        # `test BUNDLE --json -- COMMAND` leaves the command here.
        args.words, unknown = [*args.words, *unknown[1:]], []
    where: argparse.ArgumentParser = getattr(args, "command_parser", None) or parser
    if unknown:
        where.error(unknown_arguments(where, unknown))
    resolve_bundle(args, where)
    return args
