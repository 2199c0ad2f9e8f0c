"""How Claude Code tells its hooks whether a person is at its prompt (observed with
2.1.331, pinned by tests/claude_code/test_binary.py and test_interactive.py).

``$CLAUDE_CODE_ENTRYPOINT`` is ``cli`` in a hook of an interactive session and ``sdk-cli``
in one of ``claude -p``. A command hook inherits it; an HTTP hook sends it in
`ENTRYPOINT_HEADER` when its settings list the variable in ``allowedEnvVars``.
"""

from __future__ import annotations

from amplifier_hooks.hosts.host_table import ANSWER_WORDS

__all__ = ["ATTENDED_ENTRYPOINTS", "ENTRYPOINT_ENV", "ENTRYPOINT_HEADER"]

ENTRYPOINT_ENV = "CLAUDE_CODE_ENTRYPOINT"
ENTRYPOINT_HEADER = "X-Claude-Code-Entrypoint"
ATTENDED_ENTRYPOINTS: frozenset[str] = ANSWER_WORDS["claude-code"]["attended"]
"""Entrypoints whose sessions show Claude Code's own permission prompt to a person."""
