"""An agent CLI started in a folder outside the workspace: ``git worktree add /tmp/wt
OLD && cd /tmp/wt && claude -p "..."``.

An agent CLI reads its project settings and hooks from the folder it runs in. Outside the
workspace those are not the ones the guard was installed into and has read: a checkout of
a commit from before the guard was installed has none, so the agent started there runs
its calls with no guard. Such a piece is marked `ELSEWHERE` (rule
``agent-cli-outside-workspace``); the same agent started in the workspace is not.
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate

__all__ = ["AGENT_CLIS", "ELSEWHERE", "mark_agents_elsewhere"]

ELSEWHERE = "@agent-elsewhere"
"""The mark of an agent CLI's piece that runs in a folder outside the workspace."""
AGENT_CLIS = frozenset(
    {"claude", "codex", "gemini", "copilot", "opencode", "cline", "openclaw", "cursor-agent",
     "qwen", "crush", "amp", "aider"}
)  # fmt: skip
"""Agent CLIs that read a project's settings (and hooks) from the folder they run in."""
_FOLDER_OPTIONS = frozenset({"-C", "--cd"})
"""``codex -C DIR``, ``codex --cd DIR``: the folder the agent works in, given to it."""
_ONLY_PRINT = frozenset({"--version", "-v", "-V", "--help", "-h"})
"""Options that only print and start no session."""


def mark_agents_elsewhere(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces`` with each agent CLI started outside the workspace marked `ELSEWHERE`
    (the same tuple when none is)."""
    if not any([p.program in AGENT_CLIS for p in pieces]):
        return pieces
    out = list(pieces)
    for index, piece in enumerate(pieces):
        if piece.program in AGENT_CLIS and _elsewhere(piece, places):
            out[index] = piece._replace(wrappers=(*piece.wrappers, ELSEWHERE))
    return tuple(out)


def _elsewhere(piece: Piece, places: Places) -> bool:
    args = piece.args
    if piece.cwd is None or any([a in _ONLY_PRINT for a in args]):
        return False
    folder = "."
    for index, arg in enumerate(args):
        if arg in _FOLDER_OPTIONS and index + 1 < len(args):
            folder = args[index + 1]
        elif arg.startswith("--cd="):
            folder = arg[5:]
    return "outside_workspace" in locate(folder, piece.cwd, places).where
