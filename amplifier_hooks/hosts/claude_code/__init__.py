"""Claude Code as a host: its hook protocol <-> our events (CONTRACT §11).

`CLAUDE_CODE` is the adapter; `ClaudeStyleAdapter` serves any host that speaks the same
protocol (Codex: `amplifier_hooks.hosts.codex`). See docs/claude-code.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from amplifier_hooks.hosts.base import HostAnswer, HostCall
from amplifier_hooks.hosts.claude_code.answers import build_answer, refuse_answer
from amplifier_hooks.hosts.claude_code.dialect import (
    CLAUDE_CODE_DIALECT,
    CODEX_DIALECT,
    Dialect,
)
from amplifier_hooks.hosts.claude_code.mapping import parse_call
from amplifier_hooks.session.outcome import Outcome

__all__ = ["CLAUDE_CODE", "CLAUDE_CODE_DIALECT", "CODEX_DIALECT", "ClaudeStyleAdapter", "Dialect"]


@dataclass(frozen=True, repr=False)
class ClaudeStyleAdapter:
    """A `HostAdapter` for Claude Code's hook protocol, in one host's `Dialect`."""

    dialect: Dialect

    def __repr__(self) -> str:
        return f"<host adapter {self.dialect.name}>"

    @property
    def name(self) -> str:
        return self.dialect.name

    @property
    def non_guarding_events(self) -> frozenset[str]:
        """Known events a failure need not block (see `guess_guarding`)."""
        return self.dialect.non_guarding_events

    def parse(self, payload: object) -> HostCall:
        return parse_call(self.dialect, payload)

    def answer(self, call: HostCall, outcome: Outcome) -> HostAnswer:
        return build_answer(self.dialect, call, outcome)

    def refuse(self, call: HostCall | None, reason: str, guarding: bool) -> HostAnswer:
        return refuse_answer(self.dialect, call, reason, guarding)


CLAUDE_CODE = ClaudeStyleAdapter(CLAUDE_CODE_DIALECT)
"""The Claude Code adapter."""
