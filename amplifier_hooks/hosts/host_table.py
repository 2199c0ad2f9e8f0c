"""The facts every host has, side by side: one row a host, one column a fact.

What a host is called, which release its facts were observed on, which answers its tool
gate takes, its hook timeouts and what it does with a guarded call when a hook fails: these
compare across hosts, so they stand in one table each, where a column shows how the hosts
differ and a new host is one row. `host_profile` makes a host's `HostProfile` from its rows
and what is the host's alone (its dialect, settings, trust, failure fix and probe).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from amplifier_hooks.hosts.profile import (
    AnswerRules,
    FailureModes,
    HostProfile,
    SettingsPlaces,
    Timeouts,
    Trust,
)

if TYPE_CHECKING:
    from amplifier_hooks.hosts.dialect import Dialect

__all__ = [
    "ANSWERS",
    "FAILURES",
    "IDENTITIES",
    "RELEASES",
    "TIMEOUTS",
    "Identity",
    "Release",
    "host_profile",
]


class Identity(NamedTuple):
    """What a host is called: in titles, on our command line, and its program."""

    title: str
    command: str
    binary: str


class Release(NamedTuple):
    """The npm package a host ships in, and the version its facts were observed on."""

    package: str
    verified: str


IDENTITIES: Final[Mapping[str, Identity]] = {
    "claude-code": Identity("Claude Code", "claude-code", "claude"),
    "codex": Identity("Codex CLI", "codex", "codex"),
    "gemini-cli": Identity("Gemini CLI", "gemini", "gemini"),
    "copilot": Identity("GitHub Copilot CLI", "copilot", "copilot"),
    "opencode": Identity("OpenCode", "opencode", "opencode"),
    "cline": Identity("Cline", "cline", "cline"),
    "openclaw": Identity("OpenClaw", "openclaw", "openclaw"),
}

RELEASES: Final[Mapping[str, Release]] = {
    "claude-code": Release("@anthropic-ai/claude-code", "2.1.331"),
    "codex": Release("@openai/codex", "0.169.0"),
    "gemini-cli": Release("@google/gemini-cli", "0.61.0"),
    "copilot": Release("@github/copilot", "1.0.102"),
    "opencode": Release("opencode-ai", "1.18.33"),
    "cline": Release("cline", "3.0.65"),
    "openclaw": Release("openclaw", "2026.9.6"),
}

ANSWERS: Final[Mapping[str, AnswerRules]] = {
    # ask, a bare allow, a rewrite without an allow, an empty deny reason, the blocking exit
    "claude-code": AnswerRules(True, True, True, True, 2),
    "codex": AnswerRules(False, False, False, False, 2),
    "gemini-cli": AnswerRules(False, True, True, True, 2),
    "copilot": AnswerRules(True, True, True, True, 1),
    "opencode": AnswerRules(False, True, True, True, 2),
    "cline": AnswerRules(False, True, True, True, 0),
    "openclaw": AnswerRules(True, True, True, True, 2),
}
"""Which answers each host's tool gate takes (`AnswerRules`; its words are the host's)."""

TIMEOUTS: Final[Mapping[str, Timeouts]] = {
    # unit, the host's default, what install writes (, on the session's last event)
    "claude-code": Timeouts("s", 600, 600, 10),
    "codex": Timeouts("s", 600, 600, 3),
    "gemini-cli": Timeouts("ms", 60_000, 600_000, 10_000),
    "copilot": Timeouts("s", 30, 600, 10),
    "opencode": Timeouts("s", 0, 610),  # OpenCode waits forever; our plugin, 610 s
    "cline": Timeouts("s", 120, 120),  # Cline kills a hook at 120 s and runs the tool
    "openclaw": Timeouts("ms", 15_000, 330_000),  # a 300 s question and a margin
}
"""Each host's hook timeouts (`Timeouts`)."""

_B: Final = "blocks"
_P: Final = "proceeds"

FAILURES: Final[Mapping[str, FailureModes]] = {
    # exit 1, exit 2, a timeout, output that is not JSON, no program (, an untrusted hook)
    "claude-code": FailureModes(_P, _B, _P, _P, _P),
    "codex": FailureModes(_P, _B, _P, _P, _P, _P),
    "gemini-cli": FailureModes(_P, _B, _P, _P, _B),
    "copilot": FailureModes(_B, _B, _P, _P, _B, _P),
    "opencode": FailureModes(_B, _B, _B, _B, _P),
    "cline": FailureModes(_P, _P, _P, _P, _P),
    "openclaw": FailureModes(_B, _B, _B, _B, _P),
}
"""What each host does with the guarded call when its hook fails (`FailureModes`)."""


def host_profile(
    name: str,
    dialect: Dialect,
    *,
    settings: SettingsPlaces,
    trust: Trust,
    wraps_command: bool,
    failure_fix: str,
    probe_event: str = "PreToolUse",
    probe: Mapping[str, Any] = MappingProxyType({}),
    answer_words: Mapping[str, Any] = MappingProxyType({}),
) -> HostProfile:
    """The `HostProfile` of host ``name``: its rows of the tables above, and the rest.
    ``answer_words`` are its `AnswerRules` words (``no_ask``, ``attended``,
    ``unattended``)."""
    identity, release = IDENTITIES[name], RELEASES[name]
    return HostProfile(
        name=name,
        title=identity.title,
        command=identity.command,
        binary=identity.binary,
        package=release.package,
        verified=release.verified,
        dialect=dialect,
        answers=replace(ANSWERS[name], **answer_words),
        timeouts=TIMEOUTS[name],
        settings=settings,
        trust=trust,
        failures=FAILURES[name],
        wraps_command=wraps_command,
        failure_fix=failure_fix,
        probe_event=probe_event,
        probe=dict(probe),
    )
