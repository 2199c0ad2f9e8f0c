"""What one run of `evaluate`'s shell holds: its variables and folder (`Scope`), the
functions defined, what it is given and what it prints where that is known, how deep it
is, and the commands it has found (`ShellState.emit`). `evaluate` walks the script over it.
"""

from __future__ import annotations

from tree_sitter import Node

from amplifier_hooks.guard.evalcommand import Fields
from amplifier_hooks.guard.evalresult import Emitted, Evaluation, command_texts, is_pattern
from amplifier_hooks.guard.evalscope import Scope, Unknown

__all__ = ["Function", "ShellState"]

Function = tuple[bytes, Node, bool]
"""A function's text, body, and whether the parse did not read it (defined in a computed
script, or exported to a shell in a variable's value)."""


class ShellState:
    """The state of the shell `evaluate` runs: what each command changes or reads."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.functions: dict[str, Function] = {}
        self.result = Evaluation()
        self.steps = 0
        self.depth = 0
        self.calling: list[str] = []  # the functions being run, innermost last
        self.capture: list[str] | None = None
        """The output of the commands run, where it is known (None: it is not wanted)."""
        self.stdin: str | None = None
        """What the command run is given on its input, where it is known."""
        self.exported: dict[str, Function] = {}
        """Functions exported to the shells started (``env BASH_FUNC_f%%=...``)."""
        self.fds: dict[str, str] = {}
        """What each ``<(...)`` holds, by the name bash gives it."""
        self.nested = False
        """In a script ``eval`` or ``sh -c`` runs: each command is given (the parse may
        not have read the script)."""
        self.moved = False
        """The folder was changed to one the parse could not know (``cd "$D"``): each
        command after is given, in it."""
        self.hung: list[Node] = []
        """Words a redirection before them took (``cmd 2>/dev/null ARGS``)."""
        self.origin: str | None = None
        """The text of the line's own command being run (what it emits is from it)."""
        self.redirects: str | None = ""
        """The file redirections of the statement being run, written for the parse: each
        command given keeps them (``eval "echo x > $f"`` writes the file $f names); None
        where a target is not one known name."""
        self.unknowns = 0
        """How many times something could not be told (a command's result is whole
        only if none was met while it ran)."""

    def emit(self, fields: Fields) -> None:
        """Give the command these fields are, in the current folder (each program a
        pattern in its name can match)."""
        if not self.scope.cwd:
            raise Unknown("cwd")
        for text in command_texts(fields):
            if self.redirects is None:
                raise Unknown("redirection target")
            if self.redirects:
                text = f"{text} {self.redirects}"
            self.result.commands.append(
                Emitted(text, self.scope.cwd, not self.scope.guessed, self.origin)
            )
        if is_pattern(fields[0]):
            raise Unknown("the program is a pattern")  # (a program not listed may match)
