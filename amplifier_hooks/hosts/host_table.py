"""The facts every host has, side by side: one row a host, one table a fact.

What a host is called, which release its facts were observed on, which answers its tool
gate takes, its hook timeouts, where its settings live, how it trusts a hook, what it does
with a guarded call when a hook fails and what ``install`` does about that, and the call
``doctor`` probes it with: these compare across hosts, so they stand in one table each,
where a column shows how the hosts differ and a new host is one row in each.
`host_profile` makes a host's `HostProfile` from its rows and its `Dialect` (its events
and tools, written in the host's own module).
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from dataclasses import replace
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
    "ANSWER_WORDS",
    "FAILURES",
    "FAILURE_FIXES",
    "IDENTITIES",
    "PROBES",
    "RELEASES",
    "SETTINGS",
    "TIMEOUTS",
    "TRUST",
    "FailureFix",
    "Identity",
    "Probe",
    "Release",
    "host_profile",
]


class Identity(NamedTuple):
    """What a host is called: in titles, on our command line, and its program."""

    title: str
    command: str
    binary: str


class FailureFix(NamedTuple):
    """What ``install`` does about a host's fail-open paths."""

    wraps_command: bool
    """Whether it wraps our command in the fail-closed sh wrapper (see
    `HostProfile.wraps_command`)."""
    how: str
    """What it does, in a sentence."""


class Probe(NamedTuple):
    """What ``doctor`` probes a host with: its guarded event and a call on it."""

    event: str
    payload: Mapping[str, Any]


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


ANSWER_WORDS: Final[Mapping[str, Mapping[str, Any]]] = {
    "claude-code": {"attended": frozenset({"cli"})},
    "gemini-cli": {
        "no_ask": "can ask its user before a tool call, but does not tell its hooks whether "
        "a person is there (under gemini -p an ask ends the turn without a word)",
    },
    "opencode": {
        "no_ask": "has no way for a plugin to ask its user (its permission.ask hook is never "
        "called, and headless it rejects its own questions)",
    },
    "cline": {"no_ask": "has no answer with which a hook can ask its user"},
    "openclaw": {
        "attended": frozenset({"channel"}),
        "unattended": "can ask only a person on a channel (/approve), and no channel started "
        "this run (an `openclaw agent --local` or CLI run)",
    },
}
"""Each host's `AnswerRules` words where the defaults do not say it: why it never gets an
"ask" (``no_ask``), the entrypoints in which a person answers its own prompt
(``attended``: Claude Code's ``$CLAUDE_CODE_ENTRYPOINT``, OpenClaw's plugin when a channel
started the run) and why it cannot ask otherwise (``unattended``)."""

SETTINGS: Final[Mapping[str, SettingsPlaces]] = {
    # the user-level file, the project's, the variable that moves the user-level directory
    "claude-code": SettingsPlaces("~/.claude/settings.json", ".claude/settings.json"),
    "codex": SettingsPlaces("$CODEX_HOME/hooks.json", ".codex/hooks.json", "CODEX_HOME"),
    "gemini-cli": SettingsPlaces("~/.gemini/settings.json", ".gemini/settings.json"),
    "copilot": SettingsPlaces(
        "~/.copilot/hooks (not used by amplifier-hooks)", ".github/hooks/amplifier-hooks.json"
    ),
    "opencode": SettingsPlaces(
        "~/.config/opencode/plugin/amplifier-hooks.js", ".opencode/plugin/amplifier-hooks.js"
    ),
    "cline": SettingsPlaces("~/.cline/hooks", ".cline/hooks"),
    "openclaw": SettingsPlaces("~/.openclaw/openclaw.json", None),
}
"""Where each host reads hooks (or plugins) from (`SettingsPlaces`)."""

TRUST: Final[Mapping[str, Trust]] = {
    "claude-code": Trust(
        "none",
        "Claude Code runs every hook in its settings (a project's own settings once its "
        "folder is trusted at the first start)",
    ),
    "codex": Trust(
        "hook-hash",
        "Codex runs a hook only once its hash is recorded as trusted in "
        '$CODEX_HOME/config.toml ([hooks.state."KEY"] trusted_hash); `codex exec` skips '
        "an untrusted hook silently. `amplifier-hooks codex install` records it; a "
        "project's .codex/hooks.json is read only in a project Codex trusts",
    ),
    "gemini-cli": Trust(
        "workspace",
        "Gemini CLI loads a project's .gemini/settings.json hooks only in a trusted "
        "folder (not under --skip-trust, silently); user-level hooks always run",
    ),
    "copilot": Trust(
        "folder",
        "Copilot CLI runs a repository's .github/hooks only in a folder it trusts: "
        "answer its trust prompt, or pass --trust-folder with -p (one session); "
        "otherwise the hooks are skipped without a word",
    ),
    "opencode": Trust("none", "OpenCode loads every plugin in its plugin folders without asking"),
    "cline": Trust("none", "Cline runs every hook file in its hook folders, under --yolo too"),
    "openclaw": Trust(
        "none",
        "OpenClaw loads a plugin from plugins.load.paths with an 'unverified origin' "
        "warning; a plugins.allow list must name it, and plugins.deny must not",
    ),
}
"""How each host decides to run a configured hook (`Trust`)."""

_CLINE_LIMIT: Final = TIMEOUTS["cline"].host_default

FAILURE_FIXES: Final[Mapping[str, FailureFix]] = {
    # whether install wraps our command in the fail-closed sh wrapper, and what it does
    "claude-code": FailureFix(
        False,
        "every guarding hook is installed with onFailure: block, so Claude Code blocks the "
        "call on any failure of the hook (command and HTTP alike)",
    ),
    "codex": FailureFix(
        True,
        "the installed command is a small sh wrapper: when our process cannot start, "
        "crashes, runs out of time or prints no JSON, it exits 2 with the reason on stderr, "
        "which Codex takes as a block; install records the hooks' trusted hashes",
    ),
    "gemini-cli": FailureFix(
        True,
        "the installed command is a small sh wrapper that exits 2 with the reason on stderr "
        "when our process crashes, runs out of time or prints no JSON; timeouts are written "
        "in milliseconds",
    ),
    "copilot": FailureFix(
        True,
        "the installed command is a small sh wrapper that exits 1 (a deny) when our process "
        "crashes, runs out of time or prints no JSON, before Copilot's own timeout",
    ),
    "opencode": FailureFix(
        False,
        "the plugin blocks the call on every failure of its own (a server that is down, an "
        "answer it cannot read) with the reason, and bounds its wait, which OpenCode does "
        "not; a plugin that fails to load or --pure cannot be closed from a plugin: "
        "`doctor` loads ours in OpenCode's own runtime and says so",
    ),
    "cline": FailureFix(
        True,
        "each hook file runs our command in the sh wrapper, which answers a JSON deny with "
        "the reason when our process crashes, prints no JSON or has not answered "
        f"{_CLINE_LIMIT - 10} s in (Cline kills a hook at {_CLINE_LIMIT} s and runs the tool)",
    ),
    "openclaw": FailureFix(
        False,
        "the plugin answers every failure of ours (no server, an unreadable answer, no "
        "answer within OpenClaw's budget) with a deny whose reason the model reads; install "
        "sets that budget from the bundle's approval timeout",
    ),
}
"""What ``install`` does about each host's fail-open paths (`FailureFix`)."""


_DOCTOR: Final = "amplifier-hooks-doctor"
_SHELL_TRUE: Final = {"command": "true", "description": "amplifier-hooks doctor probe"}

PROBES: Final[Mapping[str, Probe]] = {
    "claude-code": Probe(
        "PreToolUse",
        {
            "session_id": _DOCTOR,
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": _SHELL_TRUE,
            "tool_use_id": _DOCTOR,
        },
    ),
    "codex": Probe(
        "PreToolUse",
        {
            "session_id": _DOCTOR,
            "transcript_path": None,
            "hook_event_name": "PreToolUse",
            "model": _DOCTOR,
            "permission_mode": "default",
            "turn_id": _DOCTOR,
            "tool_name": "Bash",
            "tool_input": {"command": "true"},
            "tool_use_id": _DOCTOR,
        },
    ),
    "gemini-cli": Probe(
        "BeforeTool",
        {
            "session_id": _DOCTOR,
            "hook_event_name": "BeforeTool",
            "timestamp": "1970-01-01T00:00:00.000Z",
            "tool_name": "run_shell_command",
            "tool_input": _SHELL_TRUE,
        },
    ),
    "copilot": Probe(
        "preToolUse",
        {"sessionId": _DOCTOR, "timestamp": 0, "toolName": "bash", "toolArgs": _SHELL_TRUE},
    ),
    "opencode": Probe(
        "tool.execute.before",
        {
            "hook_event_name": "tool.execute.before",
            "sessionID": _DOCTOR,
            "callID": _DOCTOR,
            "tool": "bash",
            "args": _SHELL_TRUE,
        },
    ),
    "cline": Probe(
        "PreToolUse",
        {
            "hook_event_name": "PreToolUse",
            "hookName": "tool_call",
            "taskId": _DOCTOR,
            "tool_call": {"id": "probe", "name": "run_commands", "input": {"commands": ["true"]}},
            "preToolUse": {"toolName": "run_commands", "parameters": {"commands": '["true"]'}},
        },
    ),
    "openclaw": Probe(
        "before_tool_call",
        {
            "hook_event_name": "before_tool_call",
            "sessionId": _DOCTOR,
            "toolName": "exec",
            "params": {"command": "true"},
        },
    ),
}
"""Each host's guarded event and a harmless call on it -- the shell running ``true`` -- as
the host sends it, without ``cwd`` (what ``doctor`` probes with)."""


def host_profile(name: str, dialect: Dialect) -> HostProfile:
    """The `HostProfile` of host ``name``: its rows of the tables above, and its
    ``dialect`` (what its own module says of its events and tools)."""
    fix, probe = FAILURE_FIXES[name], PROBES[name]
    return HostProfile(
        name,
        *IDENTITIES[name],  # title, command, binary
        *RELEASES[name],  # package, verified
        dialect=dialect,
        answers=replace(ANSWERS[name], **ANSWER_WORDS.get(name, {})),
        timeouts=TIMEOUTS[name],
        settings=SETTINGS[name],
        trust=TRUST[name],
        failures=FAILURES[name],
        wraps_command=fix.wraps_command,
        failure_fix=fix.how,
        probe_event=probe.event,
        probe=deepcopy(dict(probe.payload)),
    )
