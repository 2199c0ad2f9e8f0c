"""The command line of our installed command hooks, for every host: written here once,
recognised here once.

``install`` writes ``PYTHON -S -P .../amplifier_hooks/cli/hook_start.py HOST hook --bundle
B`` (why the flags: `amplifier_hooks.cli.hook_start`). Hooks installed before it ran
``PYTHON -m amplifier_hooks.cli HOST hook``, and a user may have written ``amplifier-hooks
HOST hook`` by hand: all three are ours, so a new install replaces them and ``doctor``
reads them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from amplifier_hooks.host_commands import HOST_COMMANDS

__all__ = [
    "COMMAND_MARKERS",
    "HOOK_SCRIPT",
    "HOOK_SCRIPT_NAME",
    "START_FLAGS",
    "hook_argv",
    "our_argv",
]

HOOK_SCRIPT = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cli", "hook_start.py"
)
"""The script the hook command runs (a file of this package, wherever it is installed)."""

START_FLAGS = ("-S", "-P")
"""No `site` at start, nothing prepended to the path (see `amplifier_hooks.cli.hook_start`)."""

HOOK_SCRIPT_NAME = os.path.basename(HOOK_SCRIPT)
"""``hook_start.py``: how an installed command is known to run it."""
_PROGRAMS = ("amplifier_hooks.cli", "amplifier-hooks", HOOK_SCRIPT_NAME, HOOK_SCRIPT_NAME + "'")

COMMAND_MARKERS = tuple(f"{program} {host} hook" for host in HOST_COMMANDS for program in _PROGRAMS)
"""What our command hooks run, for every host, as it appears in the shell command (the
script's path may be quoted)."""


def hook_argv(executable: str, host: str, bundle: str | os.PathLike[str]) -> list[str]:
    """Our hook command for ``host`` and ``bundle``, run by ``executable``."""
    return [executable, *START_FLAGS, HOOK_SCRIPT, host, "hook", "--bundle", str(bundle)]


def our_argv(words: Sequence[str]) -> list[str]:
    """Our command line among ``words`` (an installed command, split; the wrapper's
    arguments end with it): from the interpreter on, or all of ``words``."""
    for i, word in enumerate(words):
        if word == "amplifier_hooks.cli" or os.path.basename(word) == HOOK_SCRIPT_NAME:
            start = i
            while start > 0 and words[start - 1].startswith("-"):
                start -= 1  # the interpreter's flags (-S -P, -m)
            return list(words[max(start - 1, 0) :])
    return list(words)
