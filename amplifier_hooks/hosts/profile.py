"""`HostProfile`: every fact about one agent CLI host, in one record.

What an adapter translates (event and tool names, answer shapes: the `Dialect`), what the
host accepts as an answer, its timeout unit, where its settings live, how it decides to
trust a hook, and what it does with the guarded call when a hook fails. The CLI, the
server's routes, ``install``, ``doctor`` and docs/hosts.md all read these records, so a
fact is written once, next to the version of the host it was observed on
(agent-cli-hooks.md §7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # the records import nothing at run time: adapters import them
    from amplifier_hooks.hosts.dialect import Dialect

__all__ = [
    "AnswerRules",
    "Consequence",
    "FailureModes",
    "HostProfile",
    "SettingsPlaces",
    "Timeouts",
    "Trust",
]

Consequence = Literal["blocks", "proceeds"]
"""What happens to the guarded call: the host blocks it, or lets it proceed (fails open)."""


@dataclass(frozen=True)
class FailureModes:
    """What the host does with the guarded call when its hook fails, kind by kind."""

    exit_1: Consequence
    """The hook exits 1 (or any code but 0 and 2): a crash, a traceback."""
    exit_2: Consequence
    timeout: Consequence
    """The hook runs past the timeout configured for it."""
    bad_json: Consequence
    """The hook exits 0 with output the host cannot read as an answer."""
    missing_program: Consequence
    """The hook's program cannot be started (moved, uninstalled)."""
    untrusted: Consequence | None = None
    """A hook the host does not trust (None: the host has no hook trust)."""

    def open_paths(self) -> tuple[str, ...]:
        """The kinds of failure that let the call proceed (field names, in order)."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) == "proceeds")


@dataclass(frozen=True)
class Timeouts:
    """The host's hook timeouts: unit, its default, and what ``install`` writes."""

    unit: Literal["s", "ms"]
    host_default: int
    """The host's timeout when none is configured, in ``unit``."""
    ours: int
    """The timeout ``install`` writes, in ``unit``: room for a person to answer an
    approval (300 s by default) and for a cold start of our process (~1.5 s)."""
    session_end: int | None = None
    """A shorter one for the session's last event, where the host waits on exit."""

    def seconds(self, value: int) -> float:
        """``value`` (in ``unit``) in seconds."""
        return value / 1000 if self.unit == "ms" else float(value)

    def in_unit(self, seconds: float) -> int:
        """``seconds`` in ``unit``, rounded down."""
        return int(seconds * 1000) if self.unit == "ms" else int(seconds)


@dataclass(frozen=True)
class SettingsPlaces:
    """Where the host reads hooks from."""

    user: str
    """The user-level file (``~`` and ``$VARS`` as the host expands them)."""
    project: str | None
    """The project-level file, relative to the project root; None: there is none."""
    home_variable: str | None = None
    """The environment variable that moves the user-level directory (``CODEX_HOME``)."""


@dataclass(frozen=True)
class Trust:
    """How the host decides to run a configured hook."""

    mechanism: Literal["none", "hook-hash", "folder", "workspace"]
    """``none``: every configured hook runs; ``hook-hash``: each hook's hash must be
    recorded as trusted (Codex); ``folder``/``workspace``: the project must be trusted
    for its hooks to load (Copilot CLI, Gemini CLI)."""
    note: str
    """What a user must do, in a sentence (shown by install, doctor and the docs)."""


@dataclass(frozen=True)
class AnswerRules:
    """Which answers the host's tool gate takes (observed on the real binary); an answer
    it does not take is a failed hook, so ours never send one."""

    ask: bool
    """"Ask the user" (``permissionDecision: "ask"``) is taken."""
    bare_allow: bool
    """An allow without a rewrite is taken."""
    rewrite_without_allow: bool
    """A rewritten input without an allow is applied (and the host's own permission
    rules still decide)."""
    empty_deny_reason: bool
    """A deny with an empty reason is taken."""
    blocking_exit: int
    """The exit code that blocks the call with the reason read from stderr: what our
    fail-closed wrapper uses when our own process gives no answer."""
    no_ask: str = "has no way to ask its user from a hook"
    """Why we never send this host an "ask" (where ``ask`` is False), to follow its
    title in the reason a denied question gives."""
    attended: frozenset[str] = frozenset()
    """Entrypoints (how the host says it was started, `amplifier_hooks.hosts.asking`) in
    which a person can answer the host's own prompt; empty: the host does not tell its
    hooks, so provider ``auto`` never leaves a question to it."""
    unattended: str = "cannot show its own prompt to a person in this run"
    """Why the host cannot ask, for an entrypoint not in ``attended`` (after its title)."""


@dataclass(frozen=True, repr=False)
class HostProfile:
    """Every fact about one host (see the module docstring)."""

    name: str
    """Our name for the host: the prefix of its namespaced events (``codex:stop``)."""
    title: str
    """Its name for people (``Codex CLI``)."""
    command: str
    """The CLI command and the server's route: ``amplifier-hooks codex hook``,
    ``POST /codex``."""
    binary: str
    """The host's program on PATH."""
    package: str
    """Its npm package."""
    verified: str
    """The version these facts were observed on."""
    dialect: Dialect
    """Events and their mapping, tool names, and what each event can ask, allow,
    rewrite and block, in which answer shape."""
    answers: AnswerRules
    timeouts: Timeouts
    settings: SettingsPlaces
    trust: Trust
    failures: FailureModes
    wraps_command: bool
    """Whether ``install`` wraps our command in the fail-closed shell wrapper (where
    some failure of a hook lets the call proceed and the host has no setting to stop
    that)."""
    failure_fix: str
    """What ``install`` does about the host's fail-open paths, in a sentence."""
    probe_event: str = "PreToolUse"
    """The host event of its guarded tool call (what ``doctor`` probes with)."""
    probe: Mapping[str, Any] = field(default_factory=dict)
    """A harmless guarded tool call -- the shell running ``true`` -- as the host sends
    it, without ``cwd`` (``doctor`` adds the directory it probes in)."""

    def __repr__(self) -> str:
        return f"<HostProfile {self.name}>"
