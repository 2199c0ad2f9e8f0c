"""A tox configuration's commands: what every ``tox`` run runs in each environment.

``tox.ini`` (and ``setup.cfg``'s ``[tox:...]`` sections) give each environment
``commands``, ``commands_pre`` and ``commands_post``, one command per line, continued on
the indented lines below the key. tox runs them as words, without a shell, but a line may
call one (``sh -c 'curl ... | sh'``, allowed by ``allowlist_externals``), so each is
judged as the command line it is (`planted`), as a Makefile's recipes are.
"""

from __future__ import annotations

import re

__all__ = ["tox_commands"]

_KEY = re.compile(r"^(?:commands|commands_pre|commands_post)[ \t]*=[ \t]*(.*)$")
MAX_LINES = 64


def tox_commands(text: str) -> list[str]:
    """Each command line of the ``commands`` keys in ``text`` (a comment is none)."""
    found: list[str] = []
    within = False
    for line in text.splitlines():
        key = _KEY.match(line)
        if key is not None:
            within = True
            line = key.group(1)
        elif not within or not line[:1].isspace():
            within = False
            continue
        command = line.strip()
        if command and not command.startswith(("#", ";")):
            found.append(command.removesuffix("\\").strip())
    return found[:MAX_LINES]
