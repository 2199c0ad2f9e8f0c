"""``Get-Variable`` (``gv``) prints the session's variables: all of them with no name (as
bash's ``set`` does, ``environment-dump``), or those named, a secret's among them
(``Get-Variable GITHUB_TOKEN -ValueOnly``: ``printenv GITHUB_TOKEN``,
``secret-variable-name-print``). A name with a wildcard prints every variable it matches,
read as the whole dump.
"""

from __future__ import annotations

import shlex

from amplifier_hooks.guard.pstokens import Token

__all__ = ["VARIABLE_PRINTERS", "variables_shown"]

VARIABLE_PRINTERS = frozenset({"get-variable", "gv"})
_VALUED = ("-sc", "-in", "-ex")
"""``-Scope``, ``-Include``, ``-Exclude`` (any prefix): a value follows, not a name."""


def variables_shown(rest: tuple[Token, ...]) -> str:
    """The POSIX command that prints what ``Get-Variable REST`` prints."""
    names: list[str] = []
    skip = False
    for token in rest:
        text = token.text
        if skip:
            skip = False
            continue
        if token.kind == "word" and text.startswith("-"):
            lowered = text.lower().split(":", 1)[0]
            skip = lowered.startswith(_VALUED) and ":" not in text
            if lowered.startswith(("-in", "-ex")) and ":" in text:
                return "set"  # an Include pattern: many variables
            continue
        if token.kind in ("word", "sq", "dq"):
            names.extend(n.strip() for n in text.split(",") if n.strip())
    if not names or any(c in n for n in names for c in "*?["):
        return "set"
    return "printenv " + " ".join(shlex.quote(n.lstrip("$")) for n in names)
