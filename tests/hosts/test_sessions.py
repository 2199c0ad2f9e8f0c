"""`HostSessions`: one coordinator per host session, state that lasts the session,
sessions closed on SessionEnd or when idle, and failures that never allow."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.approvals import ApprovalRequest
from amplifier_hooks.hosts import CLAUDE_CODE, HostSessions, answer_in_process
from conftest import ManualClock
from tests.hosts.support import ROOT, fixture

MODULES = ROOT / "modules"


def write_bundle(tmp_path: Path, hooks: str, session: str = "") -> Path:
    path = tmp_path / "bundle.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            bundle: {{name: test, version: "1"}}
            session:
              approvals: {{store: ":memory:"}}
            {session}
            hooks:
            """
        )
        + textwrap.indent(textwrap.dedent(hooks), "  ")
    )
    return path


def read(session: str = "s1", path: str = "/w/a.py") -> dict[str, Any]:
    return {
        **fixture("claude-code", "PostToolUse"),
        "session_id": session,
        "tool_name": "Read",
        "tool_input": {"file_path": path},
        "tool_response": {"type": "text"},
    }


@pytest.fixture
def monitor_bundle(tmp_path: Path) -> Path:
    return write_bundle(
        tmp_path,
        f"""\
        - module: ah-progress-monitor
          source: {MODULES / "ah-progress-monitor"}
          config: {{thresholds: [2]}}
        """,
    )


async def test_module_state_lasts_the_host_session(monitor_bundle: Path) -> None:
    async with HostSessions(monitor_bundle) as sessions:
        first = await sessions.answer(CLAUDE_CODE, read("s1"))
        other = await sessions.answer(CLAUDE_CODE, read("s2"))
        second = await sessions.answer(CLAUDE_CODE, read("s1"))
        assert sorted(sessions.session_ids()) == ["s1", "s2"]
    assert first.output is None
    assert other.output is None  # s2's streak is its own
    assert second.output is not None
    context = second.output["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("Progress check: 2 read-only tool calls in a row")


async def test_in_process_answers_do_not_keep_state(monitor_bundle: Path) -> None:
    answers = [await answer_in_process(monitor_bundle, read("s1")) for _ in range(3)]
    assert [a.output for a in answers] == [None, None, None]


async def test_session_end_closes_the_session(monitor_bundle: Path) -> None:
    async with HostSessions(monitor_bundle) as sessions:
        await sessions.answer(CLAUDE_CODE, read("s1"))
        coordinator = sessions.coordinator("s1")
        assert coordinator is not None
        end = {**fixture("claude-code", "SessionEnd"), "session_id": "s1"}
        answer = await sessions.answer(CLAUDE_CODE, end)
        assert answer.output is None
        assert sessions.session_ids() == []
        assert coordinator.hooks.list_handlers() == {}  # unmounted
        again = await sessions.answer(CLAUDE_CODE, read("s1"))
        assert again.output is None  # a new coordinator: the streak starts over


async def test_idle_sessions_close_after_the_timeout(monitor_bundle: Path) -> None:
    clock = ManualClock()
    async with HostSessions(monitor_bundle, idle_timeout=60, clock=clock) as sessions:
        await sessions.answer(CLAUDE_CODE, read("s1"))
        clock.advance(59)
        await sessions.answer(CLAUDE_CODE, read("s2"))
        assert await sessions.expire_idle() == []
        clock.advance(1)
        assert await sessions.expire_idle() == ["s1"]
        assert sessions.session_ids() == ["s2"]
        clock.advance(60)
        await sessions.answer(CLAUDE_CODE, read("s3"))  # a call sweeps when the last sweep is old
        assert sessions.session_ids() == ["s3"]


async def test_a_call_answered_first_keeps_its_session_until_finished(
    monitor_bundle: Path,
) -> None:
    clock = ManualClock()
    async with HostSessions(monitor_bundle, idle_timeout=60, clock=clock) as sessions:
        reply = await sessions.reply(CLAUDE_CODE, read("s1"))
        assert reply.answer.output is None
        clock.advance(600)
        assert await sessions.expire_idle() == []  # its observers have not been told yet
        await reply.finish()
        await reply.finish()  # once only: the session is released once
        clock.advance(60)
        assert await sessions.expire_idle() == ["s1"]


async def test_session_end_is_finished_before_it_is_answered(monitor_bundle: Path) -> None:
    async with HostSessions(monitor_bundle) as sessions:
        await sessions.answer(CLAUDE_CODE, read("s1"))
        end = {**fixture("claude-code", "SessionEnd"), "session_id": "s1"}
        reply = await sessions.reply(CLAUDE_CODE, end)
        assert reply.answer.output is None and not reply.pending
        assert sessions.session_ids() == []  # closed before its answer came back


async def test_concurrent_first_calls_build_one_coordinator(monitor_bundle: Path) -> None:
    async with HostSessions(monitor_bundle) as sessions:
        built: list[Any] = []
        original = sessions._open

        async def counting(call: Any) -> Any:
            built.append(call.session_id)
            return await original(call)

        sessions._open = counting  # type: ignore[method-assign]
        answers = await asyncio.gather(
            *(sessions.answer(CLAUDE_CODE, read("s1")) for _ in range(6))
        )
        assert built == ["s1"]
        # Six reads in one session: the streak passed the threshold once.
        assert sum(a.output is not None for a in answers) == 1


def write_to(path: Path, session: str = "s1", cwd: Path | None = None) -> dict[str, Any]:
    return {
        **fixture("claude-code", "PreToolUse"),
        "session_id": session,
        "cwd": str(cwd if cwd is not None else path.parent),
        "tool_name": "Write",
        "tool_input": {"file_path": str(path), "content": "x"},
    }


async def test_a_session_opened_mid_way_knows_the_hosts_workspace(tmp_path: Path) -> None:
    """No SessionStart reached this coordinator (not wired, or the session was closed when
    idle): its modules still learn the agent's workspace, not this process's directory."""
    bundle = write_bundle(tmp_path, f"- module: ah-approval\n  source: {MODULES / 'ah-approval'}\n")
    workspace = tmp_path / "project"
    workspace.mkdir()
    async with HostSessions(bundle) as sessions:
        inside = await sessions.answer(CLAUDE_CODE, write_to(workspace / "a.py"))
        assert inside.output is None  # a write inside the workspace: nothing to say
        outside = await sessions.answer(
            CLAUDE_CODE, write_to(tmp_path / "elsewhere.py", cwd=workspace)
        )
        assert outside.output is not None  # outside it: asked, and with no provider denied
        specific = outside.output["hookSpecificOutput"]
        assert specific["permissionDecision"] == "deny"
        coordinator = sessions.coordinator("s1")
        assert coordinator is not None and coordinator.approvals.workspace == str(workspace)


class SessionAnswers:
    """A person who answers every question "for this session"."""

    def __init__(self) -> None:
        self.asked: list[ApprovalRequest] = []

    async def request_approval(self, request: ApprovalRequest) -> str:
        self.asked.append(request)
        return "Allow for this session"


def bash(session: str) -> dict[str, Any]:
    return {**fixture("claude-code", "PreToolUse"), "session_id": session}


async def test_allow_for_this_session_is_remembered_per_host_session(tmp_path: Path) -> None:
    bundle = write_bundle(
        tmp_path,
        f"""\
        - module: ah-approval
          source: {MODULES / "ah-approval"}
          config:
            defaults: false
            rules:
              - {{decision: ask, tool: bash, options: ["Allow for this session", "Deny"]}}
        """,
    )
    person = SessionAnswers()
    async with HostSessions(bundle, approval_provider=person) as sessions:
        first = await sessions.answer(CLAUDE_CODE, bash("s1"))
        second = await sessions.answer(CLAUDE_CODE, bash("s1"))
        assert len(person.asked) == 1  # the second call was answered without asking
        other = await sessions.answer(CLAUDE_CODE, bash("s2"))
        assert len(person.asked) == 2  # another session asks again
    for answer in (first, second, other):
        assert answer.output is not None
        assert answer.output["hookSpecificOutput"]["permissionDecision"] == "allow"
    assert "remembered" in second.output["hookSpecificOutput"]["permissionDecisionReason"]
    assert "person" in first.output["hookSpecificOutput"]["permissionDecisionReason"]


async def test_provider_host_in_a_bundle_asks_through_claude_code(tmp_path: Path) -> None:
    bundle = write_bundle(
        tmp_path,
        f"""\
        - module: ah-approval
          source: {MODULES / "ah-approval"}
          config:
            defaults: false
            rules:
              - {{decision: ask, tool: bash, prompt: "Run {{command}}?"}}
        """,
    )
    bundle.write_text(
        bundle.read_text().replace('{store: ":memory:"}', '{store: ":memory:", provider: host}')
    )
    answer = await answer_in_process(bundle, bash("s1"))
    assert answer.output == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "Run npm test?",
        }
    }


@pytest.fixture
def broken_bundle(tmp_path: Path) -> Path:
    module = tmp_path / "broken" / "amplifier_module_broken"
    module.mkdir(parents=True)
    (module / "__init__.py").write_text(
        "async def mount(coordinator, config):\n    raise RuntimeError('no database')\n"
    )
    return write_bundle(tmp_path, "- module: broken\n  source: ./broken\n")


async def test_a_bundle_that_fails_to_mount_blocks_guarding_events(broken_bundle: Path) -> None:
    async with HostSessions(broken_bundle) as sessions:
        answer = await sessions.answer(CLAUDE_CODE, bash("s1"))
        warned = await sessions.answer(CLAUDE_CODE, read("s1"))
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert (
        "amplifier-hooks could not check this call, so it is blocked"
        in specific["permissionDecisionReason"]
    )
    assert "no database" in specific["permissionDecisionReason"]
    assert warned.output is not None
    assert warned.output["systemMessage"].startswith("amplifier-hooks could not check this event")


async def test_an_unreadable_bundle_blocks(tmp_path: Path) -> None:
    answer = await answer_in_process(tmp_path / "missing.yaml", bash("s1"))
    assert answer.output is not None
    reason = answer.output["hookSpecificOutput"]["permissionDecisionReason"]
    assert "cannot load the bundle" in reason and "bundle file not found" in reason


async def test_malformed_input_blocks_with_exit_2(monitor_bundle: Path) -> None:
    async with HostSessions(monitor_bundle) as sessions:
        answer = await sessions.answer(CLAUDE_CODE, "not an object")
        known = await sessions.answer(CLAUDE_CODE, {"hook_event_name": "PostToolUse"})
    assert (answer.exit_code, answer.output) == (2, None)
    assert "hook input must be a JSON object, got a string" in answer.stderr
    # A known non-guarding event need not block: it warns.
    assert known.exit_code == 0 and known.output is not None


async def test_closed_sessions_refuse(monitor_bundle: Path) -> None:
    sessions = HostSessions(monitor_bundle)
    await sessions.aclose()
    answer = await sessions.answer(CLAUDE_CODE, bash("s1"))
    assert answer.output is not None
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"
