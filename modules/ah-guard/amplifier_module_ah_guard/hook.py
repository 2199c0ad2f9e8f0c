"""The guard as a hook: places, verdicts and results.

The places a call is judged in: the workspace (configured, else the session's, else the
current directory), the home folder, the files no call may change -- the ones configured,
the user's amplifier-hooks state folder (the approval store and the token live there), an
approval store the bundle names -- and the bundle files in use (read from the bundle
session once it exists), which are the guard's own: denied outside the workspace, asked
inside it. Every host's hook places and the guard's code are added by the guard itself
(`amplifier_hooks.guard.agents`, compiled by `amplifier_hooks.guard.ownplaces`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from amplifier_hooks import HookResult, toolcalls
from amplifier_hooks.approvals import default_store_path
from amplifier_hooks.guard import Places, Policy, Verdict, compile_policy, judge
from amplifier_hooks.guard.callpieces import pieces_of_call
from amplifier_hooks.guard.losses import asks_of
from amplifier_hooks.guard.mcptable import extended_table
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.paths import refresh
from amplifier_hooks.guard.policy import judge_pieces
from amplifier_hooks.guard.repo import ask_git
from amplifier_hooks.logs import get_logger
from amplifier_hooks.modules import CoordinatorView, inline
from amplifier_module_ah_guard.config import GuardConfig

__all__ = ["EXPLAIN_CAPABILITY", "GuardHook", "describe", "state_dir"]

EXPLAIN_CAPABILITY = "guard.explain"
BUNDLE_SESSION_CAPABILITY = "amplifier_hooks.bundle_session"
GUARD_FILES_CAPABILITY = "guard.own_files"
"""More of the guard's own files, where a caller knows the bundle in use lies elsewhere
than it was loaded from (``bench``'s corpora: `amplifier_hooks.cli.installed_at`). They
only add to what is protected."""
APPROVAL_KEY_PREFIX = "guard"
RESULTS_KEPT = 1024
"""Deny and allow results kept for reuse (cleared when full)."""
OPTIONS = ["Allow once", "Allow always", "Deny"]
"""An "always" answer is remembered under the rule and the exact call."""

logger = get_logger()


def state_dir() -> Path:
    """``$XDG_STATE_HOME/amplifier-hooks`` (``~/.local/state`` if unset): the approval
    store and the token file are kept there by default."""
    return default_store_path().parent


def describe(verdict: Verdict) -> str:
    """``guard rule <id>: <reason>``: what a model or a person reads."""
    return f"guard rule {verdict.rule}: {verdict.reason}"


class GuardHook:
    """The compiled policy and the handler that applies it."""

    def __init__(self, config: GuardConfig, coordinator: CoordinatorView) -> None:
        self.config = config
        self.coordinator = coordinator
        self.policy: Policy = compile_policy(config.pack, config.rules, config.disable)
        self.mcp_table = extended_table(config.mcp_tools) if config.mcp_tools else None
        self._session_workspace: str | None = None
        self._places: Places | None = None
        self._places_key: tuple[Any, ...] = ()
        self._bundle: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self._results: dict[tuple[str | None, str | None, str | None], HookResult] = {}

    @inline
    def observe_session(self, event: str, data: dict[str, Any]) -> None:
        """session:start / session:resume: remember the session's workspace."""
        workspace = data.get("workspace")
        if isinstance(workspace, str) and workspace.strip():
            self._session_workspace = workspace

    def _bundle_files(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        # Read once the bundle session exists: its files do not change for its life (a
        # reloaded bundle mounts this module afresh).
        if self._bundle is None:
            session = self.coordinator.get_capability(BUNDLE_SESSION_CAPABILITY)
            files = self._read_bundle_files(session)
            placed = self.coordinator.get_capability(GUARD_FILES_CAPABILITY)
            if isinstance(placed, tuple) and all(isinstance(p, str) for p in placed):
                files = (tuple(dict.fromkeys((*files[0], *placed))), files[1])
            if session is None:
                return files
            self._bundle = files
        return self._bundle

    @staticmethod
    def _read_bundle_files(session: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(the bundle files, the approval store a bundle names as a file): the first are
        the guard's own files (asked when in the workspace), the second its state."""
        bundle = getattr(session, "bundle", None)
        files = getattr(bundle, "files", None) or ()
        found = tuple(str(f) for f in files)
        store = getattr(getattr(getattr(bundle, "session", None), "approvals", None), "store", None)
        if isinstance(store, str) and store not in ("state", ":memory:") and bundle is not None:
            base = getattr(bundle, "base_dir", Path.cwd())
            return found, (str(Path(base) / os.path.expanduser(store)),)
        return found, ()

    def places(self) -> Places:
        """The places for the next call (rebuilt when the workspace or bundle changes)."""
        workspace = self.config.workspace or self._session_workspace
        bundle_files = self._bundle if self._bundle is not None else self._bundle_files()
        # Compared part by part: no key tuple made per call to find nothing changed.
        if (
            self._places is None
            or workspace != self._places_key[0]
            or bundle_files != self._places_key[1]
        ):
            protected = (*self.config.protect, str(state_dir()), *bundle_files[1])
            self._places = Places.of(workspace, protected=protected, guard=bundle_files[0])
            self._places_key = (workspace, bundle_files)
        return self._places

    def explain(self, data: dict[str, Any]) -> Verdict:
        """The verdict on a ``tool:pre`` event's data, with every piece. A call that
        deletes, discards or overwrites a path in a repository first asks git what that
        would lose (one bounded ``git`` run; no answer in time: no grant)."""
        places = self.places()
        if not self.policy.builtin:
            return judge(data, self.policy, places, mcp_table=self.mcp_table)
        # One call's memo (`guard.memo`) across the three steps: a path is resolved once,
        # so git is asked about the very paths the verdict then judges. Opened and
        # refreshed here, once: `judge_pieces` joins it.
        call_memo = begin()
        try:
            refresh(places)
            command, pieces, unreadable = pieces_of_call(data, places, self.mcp_table)
            if unreadable is not None:
                return unreadable
            asks = asks_of(pieces, places, command)
            repo = ask_git(asks, self.config.git_deadline) if asks else None
            return judge_pieces(command, pieces, self.policy, places, repo)
        finally:
            end(call_memo)

    @inline  # bounded work on its input: no thread hop (engine.offload)
    def handle(self, event: str, data: dict[str, Any]) -> HookResult | None:
        """The ``tool:pre`` handler."""
        verdict = self.explain(data)
        if verdict.decision is None:
            return None
        if verdict.decision != "ask":
            # A deny or an allow depends on the rule and its reason only; results are
            # frozen, so one made before is handed out again.
            key = (verdict.decision, verdict.rule, verdict.reason)
            result = self._results.get(key)
            if result is None:
                if len(self._results) >= RESULTS_KEPT:
                    self._results.clear()
                result = self._results[key] = _result(verdict)
            return result
        reason = describe(verdict)
        shown = verdict.pieces[0].text if len(verdict.pieces) == 1 else _call_text(data)
        what = toolcalls.clean_text(shown, middle=True)
        return HookResult(
            action="ask_user",
            approval_prompt=f"Allow {what}? ({reason})",
            approval_options=list(OPTIONS),
            approval_timeout=self.config.approval_timeout or 300.0,
            approval_default="deny",
            reason=reason,
            data={"approval_key": f"{APPROVAL_KEY_PREFIX}:{verdict.rule}:{_call_text(data)}"},
        )


def _result(verdict: Verdict) -> HookResult:
    if verdict.decision == "deny":
        return HookResult(action="deny", reason=describe(verdict))
    return HookResult(action="continue", grant=True, reason=describe(verdict))


def _call_text(data: dict[str, Any]) -> str:
    found = toolcalls.extract_fields(data)
    return f"{found.get('tool', '')}:{found.get('command') or found.get('path') or ''}"
