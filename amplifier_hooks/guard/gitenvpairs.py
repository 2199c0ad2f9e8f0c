"""git configuration given in the environment by assignments made apart.

git reads ``GIT_CONFIG_KEY_n`` with ``GIT_CONFIG_VALUE_n`` as ``git -c KEY=VALUE``
(`envs.commands_of` judges the pair given on one command). Exported one by one
(``export GIT_CONFIG_KEY_0=core.fsmonitor`` then ``export GIT_CONFIG_VALUE_0=...``, or a
host's shell tool given them in its ``env`` field, which `inputs.shell_input` folds in as
one ``export`` each), each assignment alone names half a setting: the key with no value is
asked, and the value, which git will run, is never read. So the pairs set anywhere in one
command are joined, and each is judged as the ``git -c`` it is for the git that runs after.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from amplifier_hooks.guard.envs import split
from amplifier_hooks.guard.model import Piece

__all__ = ["pair_git_config"]

_KEY = "GIT_CONFIG_KEY_"
_VALUE = "GIT_CONFIG_VALUE_"


def pair_git_config(
    pieces: tuple[Piece, ...], reparse: Callable[[str], tuple[Piece, ...]]
) -> tuple[Piece, ...]:
    """``pieces`` and the pieces of ``git -c KEY=VALUE`` for each key and value the
    command's assignments set (the last assignment of a name wins, as in the shell)."""
    values: dict[str, str] = {}
    for piece in pieces:
        for assignment in piece.env:
            name, value = split(assignment)
            if name.startswith((_KEY, _VALUE)):
                values[name] = value
    found: list[Piece] = []
    for name, key in values.items():
        if not name.startswith(_KEY):
            continue
        value = values.get(_VALUE + name[len(_KEY) :], "")
        if key and value:
            found.extend(reparse(f"git -c {shlex.quote(key + '=' + value)}"))
    return (*pieces, *found) if found else pieces
