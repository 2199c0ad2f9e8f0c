"""chezmoi's own commands: which paths they write.

chezmoi keeps a source folder (the dotfiles repository: ``~/.local/share/chezmoi``, or
``-S DIR``) and writes the home folder's files, its targets, from it. The guard's default
for a program it does not read is that every path it is given is written, which reads
``chezmoi cat ~/.zshrc`` as a change of a start-up file. Most of chezmoi's commands only
look (``cat``, ``diff``, ``source-path``, ``status``, ``verify``, ...), and ``-n``/
``--dry-run`` writes nothing; ``add``, ``re-add``, ``forget``, ``chattr`` and ``import``
change the source folder only: the target named is copied in (read), never written. Any
other command (``apply``, ``update``, ``edit``, ``merge``, ``destroy``, ``init``, ...)
keeps the default: it writes what it is given. ``-o``/``--output``, ``--cache`` and
``--persistent-state`` name files chezmoi writes whatever the command. Nothing here
grants: chezmoi renders its templates, which may run commands.
"""

from __future__ import annotations

__all__ = ["CHEZMOI_VALUES", "chezmoi_command_at", "chezmoi_written"]

CHEZMOI_VALUES = frozenset({"-c", "--config", "--config-format", "--cache", "--color", "-D",
                            "--destination", "--mode", "-o", "--output", "--persistent-state",
                            "-S", "--source", "-W", "--working-tree"})  # fmt: skip
"""chezmoi's global options that take the next word as their value."""

_LOOKS = frozenset({"cat", "cat-config", "completion", "data", "diff", "doctor", "dump",
                    "dump-config", "execute-template", "help", "ignored", "license", "managed",
                    "source-path", "status", "target-path", "unmanaged", "verify"})  # fmt: skip
"""Commands that print (a target's source, what apply would change, the state) and write
no file but `_WRITTEN_BY_OPTION`'s."""
_SOURCE_CHANGES = frozenset({"add", "re-add", "forget", "chattr", "import"})
"""Commands that change the source folder only: their targets are read or just named."""
_WRITTEN_BY_OPTION = frozenset({"-o", "--output", "--cache", "--persistent-state"})
_SOURCE_OPTIONS = frozenset({"-S", "--source", "-W", "--working-tree"})
_DEFAULT_SOURCE = "~/.local/share/chezmoi"
_DRY_RUN_GROUP = frozenset("nvkr")
"""Short flags that take no value, grouped with ``-n`` (``-nv``)."""


def chezmoi_command_at(args: tuple[str, ...]) -> int | None:
    """Where chezmoi's command is among ``args`` (None: no command), past its global
    options and their values."""
    index = 0
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in CHEZMOI_VALUES else 1
    return index if index < len(args) else None


def chezmoi_written(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of the paths ``chezmoi ARGS`` writes (None: every path it is given,
    the guard's default)."""
    at = chezmoi_command_at(args)
    if at is None:
        return None
    command, dry = args[at], any(_dry_run(a) for a in args)
    if not dry and command not in _LOOKS and command not in _SOURCE_CHANGES:
        return None
    written = _values(args, _WRITTEN_BY_OPTION)
    if command in _SOURCE_CHANGES and not dry:
        written += _values(args, _SOURCE_OPTIONS)[-1:] or (_DEFAULT_SOURCE,)
    return written


def _dry_run(arg: str) -> bool:
    return arg == "--dry-run" or (
        arg[:1] == "-" and arg[1:2] != "-" and "n" in arg[1:] and set(arg[1:]) <= _DRY_RUN_GROUP
    )


def _values(args: tuple[str, ...], names: frozenset[str]) -> tuple[str, ...]:
    """The values given to the options ``names`` (``-o F``, ``--output=F``), in order."""
    found: list[str] = []
    for index, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if eq and name in names and name.startswith("--"):
            found.append(value)
        elif arg in names and index + 1 < len(args):
            found.append(args[index + 1])
    return tuple(found)
