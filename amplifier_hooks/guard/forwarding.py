"""Shell functions that run their arguments: ``run(){ echo "+ $*"; "$@"; }; run ruff
check .`` runs ``ruff check .``.

A function the command defines whose body runs ``"$@"`` as a command (a forwarder) runs,
at each call, the call's words after its name. Each call is judged as those words (a
forwarder called with a forwarder's name runs that one: ``x x rm -rf ~`` is ``rm -rf ~``),
and the body's ``"$@"`` is then nothing more. That holds only when every call is seen: the
function's name appears in the command nowhere but in its definition and at the heads of
calls the walk read, so a call the guard cannot see (``eval 'run rm -rf ~'``, ``export
-f``) keeps the body's ``"$@"`` an unknown command.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from amplifier_hooks.guard.commandpieces import Command
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.words import Word

__all__ = ["ARGUMENTS", "Definition", "forwarded", "forwarded_commands"]

ARGUMENTS = "$@"
"""The text of a command head that runs the function's arguments (quoted or not)."""


class Definition(NamedTuple):
    """A function the command defines: its name and where its text is."""

    name: str
    start: int
    end: int


def forwarded(source: bytes, definitions: list[Definition], runs_arguments: dict[int, int],
              commands: list[tuple[int, Command]]) -> dict[int, Command | None]:  # fmt: skip
    """The commands to judge in place of others, by node id: a forwarder's call as the
    words it runs, and the body's ``"$@"`` as nothing (None). ``runs_arguments``: where
    the commands whose head is ``"$@"`` start, by node id; ``commands``: (node id,
    command) of every command the walk read."""
    names = {d.name for d in definitions}
    if len(names) != len(definitions):
        return {}  # a name defined twice: which body runs when is not followed
    forwarders = {d.name: d for d in definitions
                  if any(d.start <= at < d.end for at in runs_arguments.values())}  # fmt: skip
    if not forwarders:
        return {}
    changed: dict[int, Command | None] = {}
    heads: dict[str, int] = dict.fromkeys(forwarders, 0)
    for node_id, command in commands:
        words = command.words
        while words and not words[0].dynamic and words[0].text in forwarders:
            heads[words[0].text] += 1
            words = words[1:]
        if words is not command.words:
            changed[node_id] = command._replace(words=words)
        elif node_id in runs_arguments and any(
            d.start <= runs_arguments[node_id] < d.end for d in forwarders.values()
        ):  # fmt: skip
            changed[node_id] = None
    text = source.decode("utf-8", "replace")
    for name in forwarders:
        seen = len(re.findall(rf"(?<![\w$-]){re.escape(name)}(?![\w-])", text))
        if seen != heads[name] + 1:  # a use the walk did not read as a call
            return {k: v for k, v in changed.items() if v is not None}
    return changed


def forwarded_commands(
    source: bytes, definitions: list[Definition], runs_arguments: dict[int, int],
    commands: list[tuple[int, Command | Piece, int | None]],
) -> list[tuple[int, Command | Piece, int | None]]:  # fmt: skip
    """The walk's ``commands`` (node id, command or piece, id of the command it feeds) with
    the calls of forwarders read as what they run, and their bodies' ``"$@"`` left out."""
    as_commands = [(node_id, _as_command(command)) for node_id, command, _ in commands]
    changed = forwarded(source, definitions, runs_arguments, as_commands)
    if not changed:
        return commands
    kept: list[tuple[int, Command | Piece, int | None]] = []
    for node_id, command, sink in commands:
        if node_id not in changed:
            kept.append((node_id, command, sink))
            continue
        replaced = changed[node_id]
        if replaced is not None and replaced.words:
            kept.append((node_id, replaced, sink))
    return kept


def _as_command(command: Command | Piece) -> Command:
    if isinstance(command, Command):
        return command
    words = tuple(Word(w) for w in (command.program or "", *command.args))
    return Command(command.text, words, command.writes, command.reads, command.cwd)
