"""Ask a bundle what it would decide about a tool call, running nothing.

`test` and `bench` both need this: a tool call built the way the agent CLI hosts build
it (our canonical tool name, the input with ``path`` beside ``file_path``, the
``workspace``), emitted as ``tool:pre`` through the bundle's handlers, and the folded
`Resolution` read as one of the guard's decisions (or none). It is an emit, not a
dispatch: no approval provider is asked, so a question stays a question. The session is a
replay (`REPLAY_CAPABILITY`), so modules with side effects hold them back; the approval
store is in memory, so nothing the person remembered changes the answer and nothing is
remembered.

``HOME`` is set to the call's home while the bundle mounts and judges, because that is
where a guard learns what ``~`` means (with ``isolated``, the XDG folders are hidden
too, so a corpus's home decides where the state folder is); one coordinator serves every
call with the same workspace and home.
"""

from __future__ import annotations

import contextlib
import inspect
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from amplifier_hooks import events
from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.bundles import Bundle
from amplifier_hooks.bundles.format import MEMORY_STORE
from amplifier_hooks.cli.installed_at import GUARD_FILES_CAPABILITY, placed_at
from amplifier_hooks.cli.session import open_coordinator
from amplifier_hooks.engine.resolution import Resolution
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.hosts import CLAUDE_CODE
from amplifier_hooks.hosts.tools import CLAUDE_TOOLS
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules.replay import Replay
from amplifier_hooks.session.coordinator import Coordinator

if TYPE_CHECKING:  # the guard's vocabulary; the guard itself loads with a bundle that has one
    from amplifier_hooks.guard import Decision

__all__ = [
    "EXPLAIN_CAPABILITY",
    "NO_OPINION",
    "Judged",
    "Piece",
    "Probe",
    "ToolCall",
    "decision_of",
]

NO_OPINION = "no opinion"
"""How a call is shown that nothing decided (a `Decision` of None): it goes on with
nothing granted, so the host decides."""

EXPLAIN_CAPABILITY = "guard.explain"
"""The capability a guard module registers: tool:pre event data -> its verdict, with one
entry per piece of a shell command."""

PROBE_SESSION = "amplifier-hooks-probe"

logger = get_logger()


@dataclass(frozen=True)
class ToolCall:
    """A tool call to judge: ``tool`` is our canonical name (``bash``, ``read_file``...),
    ``input`` the tool's input; ``cwd`` is the agent's workspace, ``home`` its ``~``."""

    tool: str
    input: Mapping[str, Any]
    cwd: str
    home: str
    bundle: str | None = None
    """Where the bundle in use lies on the call's machine, when not where it was loaded
    from (a corpus's ``defaults: {bundle: PATH}``): the guard protects its files there
    (`amplifier_hooks.cli.installed_at`)."""


@dataclass(frozen=True)
class Piece:
    """One piece of a command as the guard judged it."""

    text: str
    decision: Decision | None
    """None when no rule spoke."""
    rule: str | None
    reason: str | None
    program: str | None = None


@dataclass(frozen=True)
class Judged:
    """What the bundle decided about one call."""

    decision: Decision | None
    """``allow`` is a grant (the host skips its own prompt); None is no opinion."""
    reason: str | None
    """The deny's reason, else the first question's, else None."""
    by: str | None
    """The handler that denied or asked."""
    granted: bool
    """An explicit allow (a grant) survived the fold."""
    pieces: tuple[Piece, ...] = field(default=())
    """The guard's view of each piece, when the bundle has a guard that explains."""
    rule: str | None = None
    """The guard's rule for the whole call, when it explains."""

    @property
    def said(self) -> str:
        """The decision as printed, counted and keyed: deny, ask, allow or no opinion."""
        return self.decision or NO_OPINION


def decision_of(resolution: Resolution) -> Decision | None:
    """deny when the fold denies; ask when it asks anything (without a deny); allow when
    an explicit allow (a grant) survives; else no opinion (the host decides)."""
    if resolution.action == "deny":
        return "deny"
    if resolution.action == "ask_user" or resolution.approvals:
        return "ask"
    return "allow" if resolution.granted is not None else None


def event_data(call: ToolCall) -> dict[str, Any]:
    """The ``tool:pre`` data a host would send for ``call``: built by the Claude Code
    adapter from the payload Claude Code would post, so it is the same shape."""
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": PROBE_SESSION,
        "cwd": call.cwd,
        "tool_name": CLAUDE_TOOLS.host_name(call.tool, call.tool),
        "tool_input": dict(call.input),
    }
    data = CLAUDE_CODE.parse(payload).data
    data["tool_name"] = call.tool  # a canonical name Claude Code lacks stays as given
    return data


_XDG = ("XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")


@contextlib.contextmanager
def _home(home: str, isolated: bool) -> Iterator[None]:
    """``HOME`` is ``home`` inside; ``isolated`` also hides the XDG folders, so the places
    under home (the approval store's state folder...) follow ``home`` alone."""
    if not isolated and os.environ.get("HOME") == home:
        # Nothing to change: a server judging beside its sessions (`test` relayed to
        # it) must not take HOME away from them, even for an instant.
        yield
        return
    names = ("HOME", *_XDG) if isolated else ("HOME",)
    before = {name: os.environ.get(name) for name in names}
    for name in names:
        os.environ.pop(name, None)
    os.environ["HOME"] = home
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Probe:
    """Judges tool calls with one bundle (see the module docstring). Use it as an async
    context manager; `judge` as often as needed."""

    def __init__(self, bundle: Bundle, *, isolated: bool = False) -> None:
        self.bundle = bundle
        self.isolated = isolated
        """Judge as on a machine of its own: only ``HOME`` says where home is (bench's
        corpora describe such machines); otherwise the XDG folders stay as they are."""
        self._coordinators: dict[tuple[str, str, str | None], Coordinator] = {}

    async def __aenter__(self) -> Probe:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close every coordinator (its modules' cleanups run)."""
        coordinators, self._coordinators = list(self._coordinators.values()), {}
        for coordinator in coordinators:
            await coordinator.cleanup()

    async def _coordinator(self, cwd: str, home: str, bundle: str | None = None) -> Coordinator:
        key = (cwd, home, bundle)
        coordinator = self._coordinators.get(key)
        if coordinator is None:
            coordinator, _ = await open_coordinator(
                self.bundle,
                provider=PolicyApprovalProvider(),
                store=MEMORY_STORE,
                replay=Replay(),
            )
            if bundle is not None:
                # Before the first tool call: the guard reads its own files then.
                coordinator.register_capability(
                    GUARD_FILES_CAPABILITY, placed_at(self.bundle, bundle)
                )
            self._coordinators[key] = coordinator
            await coordinator.dispatch(
                events.SESSION_START,
                {"workspace": cwd, "host": {"name": "amplifier-hooks", "event": None}},
            )
        return coordinator

    async def open(self, cwd: str, home: str) -> None:
        """Mount the bundle for the workspace ``cwd`` now (raises what loading raises)."""
        with _home(home, self.isolated):
            await self._coordinator(cwd, home)

    async def judge(self, call: ToolCall) -> Judged:
        """What the bundle decides about ``call`` (raises what the bundle's loading
        raises: `BundleError`)."""
        return await self.judge_data(event_data(call), call.cwd, call.home, call.bundle)

    async def judge_data(
        self, data: dict[str, Any], cwd: str, home: str, bundle: str | None = None
    ) -> Judged:
        """What the bundle decides about the ``tool:pre`` event ``data`` (a host's call,
        already mapped), with the agent's workspace ``cwd`` and ``home`` (and ``bundle``:
        `ToolCall.bundle`)."""
        with _home(home, self.isolated):
            coordinator = await self._coordinator(cwd, home, bundle)
            resolution = await coordinator.hooks.emit(events.TOOL_PRE, data)
            explained = await _explain(coordinator, data)
        decision = decision_of(resolution)
        reason, by = resolution.reason, resolution.denied_by
        if decision == "ask" and resolution.approvals:
            first = resolution.approvals[0]
            reason, by = first.reason or first.prompt, first.source
        return Judged(
            decision=decision,
            reason=reason,
            by=by,
            granted=resolution.granted is not None,
            pieces=explained[1],
            rule=explained[0],
        )


async def _explain(
    coordinator: Coordinator, data: dict[str, Any]
) -> tuple[str | None, tuple[Piece, ...]]:
    """The guard's own account of ``data`` (rule, pieces), if the bundle has a guard."""
    explain = coordinator.get_capability(EXPLAIN_CAPABILITY)
    if not callable(explain):
        return None, ()
    try:
        verdict = explain(dict(data))
        if inspect.isawaitable(verdict):
            verdict = await verdict
    except Exception as exc:
        # The decision above stands (the bundle's hooks made it); only the account of
        # it is missing, and the log says why.
        logger.warning("guard.explain failed", error=describe_exception(exc))
        return None, ()
    pieces = tuple(
        Piece(
            text=str(getattr(p, "text", "")),
            decision=getattr(p, "decision", None),
            rule=getattr(p, "rule", None),
            reason=getattr(p, "reason", None),
            program=getattr(p, "program", None),
        )
        for p in getattr(verdict, "pieces", ()) or ()
    )
    return getattr(verdict, "rule", None), pieces
