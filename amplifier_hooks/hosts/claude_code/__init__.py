"""Claude Code as a host: its hook protocol <-> our events (CONTRACT §11).

`CLAUDE_CODE` is the adapter; `ClaudeStyleAdapter` serves any host that speaks the same
protocol (Codex: `amplifier_hooks.hosts.codex`), each from its `HostProfile`. See
docs/claude-code.md and docs/hosts.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from amplifier_hooks.hosts.base import HostAnswer, HostCall
from amplifier_hooks.hosts.claude_code.answers import build_answer, refuse_answer
from amplifier_hooks.hosts.claude_code.mapping import parse_call
from amplifier_hooks.hosts.claude_code.profile import CLAUDE_CODE_PROFILE
from amplifier_hooks.hosts.dialect import (
    CLAUDE_CODE_DIALECT,
    Dialect,
)
from amplifier_hooks.hosts.profile import HostProfile
from amplifier_hooks.session.outcome import Outcome

__all__ = [
    "CLAUDE_CODE",
    "CLAUDE_CODE_DIALECT",
    "CLAUDE_CODE_PROFILE",
    "ClaudeStyleAdapter",
    "Dialect",
]


Parse = Callable[[Dialect, object], HostCall]
"""Reads a host's payload as a `HostCall`."""

Answer = Callable[[HostProfile, HostCall, Outcome], HostAnswer]
"""Writes the host's answer for an `Outcome`."""

Refuse = Callable[[HostProfile, "HostCall | None", str, bool], HostAnswer]
"""Writes the host's fail-closed answer (see `HostAdapter.refuse`)."""


@dataclass(frozen=True, repr=False)
class ClaudeStyleAdapter:
    """A `HostAdapter` from one host's `HostProfile` (its `Dialect` and the answers it
    takes) and the three functions that speak its protocol: Claude Code's by default; a
    host with its own payload or answer shapes (Copilot CLI, Cline, OpenCode, OpenClaw)
    passes its own."""

    profile: HostProfile
    parser: Parse = parse_call
    answerer: Answer = build_answer
    refuser: Refuse = refuse_answer

    def __repr__(self) -> str:
        return f"<host adapter {self.dialect.name}>"

    @property
    def dialect(self) -> Dialect:
        return self.profile.dialect

    @property
    def name(self) -> str:
        return self.dialect.name

    @property
    def non_guarding_events(self) -> frozenset[str]:
        """Known events a failure need not block (see `guess_guarding`)."""
        return self.dialect.non_guarding_events

    def parse(self, payload: object) -> HostCall:
        return self.parser(self.dialect, payload)

    def answer(self, call: HostCall, outcome: Outcome) -> HostAnswer:
        return self.answerer(self.profile, call, outcome)

    def refuse(self, call: HostCall | None, reason: str, guarding: bool) -> HostAnswer:
        return self.refuser(self.profile, call, reason, guarding)


CLAUDE_CODE = ClaudeStyleAdapter(CLAUDE_CODE_PROFILE)
"""The Claude Code adapter."""
