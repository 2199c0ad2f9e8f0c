"""The command a JavaScript monorepo tool runs in each of its packages.

``pnpm -r exec rm -rf .``, ``yarn workspaces foreach -A exec rm -rf src``, ``npm exec
--workspaces -- CMD``, ``lerna exec -- CMD`` and ``nx exec -- CMD`` run CMD (in one package
or in every one), so CMD is judged as the command it is: a delete or a secret read there
is what it would be at the prompt. The tool itself runs the project's code and is never
granted (`table.PROJECT_CODE`).
"""

from __future__ import annotations

import shlex

__all__ = ["EXEC_TOOLS", "workspace_commands"]

EXEC_TOOLS = frozenset({"npm", "pnpm", "yarn", "bun", "lerna", "nx", "npx", "pnpx", "bunx"})
_RUNNERS = frozenset({"npx", "pnpx", "bunx"})
_VALUED = frozenset(
    {"--filter", "-F", "--scope", "--ignore", "--since", "--concurrency", "--include",
     "--exclude", "--from", "--workspace", "--projects", "-p", "--dir", "-C", "--prefix",
     "--since-branch", "--package", "--parallel-limit", "--jobs", "-j", "--cwd",
     "--test-pattern"}
)  # fmt: skip
"""Options of these tools, before or after ``exec``, that take the next word."""


def workspace_commands(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The command ``PROGRAM ... exec CMD`` runs (none: no ``exec`` of a command)."""
    if program in _RUNNERS:  # `npx lerna exec -- CMD`: lerna's words
        index = _operand(args, 0)
        if index >= len(args) or args[index] not in ("lerna", "nx"):
            return ()
        program, args = args[index], args[index + 1 :]
    index = _operand(args, 0)
    if program == "yarn" and args[index : index + 2] == ("workspaces", "foreach"):
        index = _operand(args, index + 2)
    if index >= len(args) or args[index] != "exec":
        return ()
    start = _operand(args, index + 1)
    words = args[start + 1 :] if args[start : start + 1] == ("--",) else args[start:]
    return (shlex.join(words),) if words else ()


def _operand(args: tuple[str, ...], index: int) -> int:
    """The index of the first word from ``index`` on that is no option or its value."""
    while index < len(args) and args[index].startswith("-") and args[index] != "--":
        index += 2 if args[index] in _VALUED else 1
    return index
