"""amplifier_hooks.testing: the helpers other test suites rely on behave as documented."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.approvals import ApprovalRequest
from amplifier_hooks.testing import (
    NO_ANSWER,
    EventRecorder,
    ScriptedApprovalProvider,
    make_coordinator,
    returns,
)
from amplifier_hooks.testing.sandbox import make_sandbox
from amplifier_hooks.testing.servers import live_processes, wait_exited


def ask(prompt: str, timeout: float = 30.0, default: str = "deny") -> HookResult:
    return HookResult(
        action="ask_user",
        approval_prompt=prompt,
        approval_timeout=timeout,
        approval_default=default,  # type: ignore[arg-type]
    )


async def test_the_script_answers_in_order_then_the_fallback() -> None:
    provider = ScriptedApprovalProvider("Allow", "Deny", then="Allow")
    harness = make_coordinator(provider)
    harness.coordinator.hooks.register("tool:pre", returns(ask("Run it?")), 0, "guard")

    verdicts = [(await harness.dispatch("tool:pre", {"n": n})).allowed for n in range(4)]
    assert verdicts == [True, False, True, True]
    assert provider.prompts == ["Run it?"] * 4
    assert [request.event for request in provider.asked] == ["tool:pre"] * 4


async def test_an_unscripted_question_fails_closed_and_is_recorded() -> None:
    harness = make_coordinator(["Allow"])
    harness.coordinator.hooks.register("tool:pre", returns(ask("Run it?")), 0, "guard")

    assert (await harness.dispatch("tool:pre", {})).allowed
    second = await harness.dispatch("tool:pre", {})
    assert not second.allowed
    assert second.approvals[0].via == "error"
    assert harness.approvals is not None and len(harness.approvals.asked) == 2


async def test_script_items_can_raise_or_depend_on_the_request() -> None:
    async def by_prompt(request: ApprovalRequest) -> str:
        await asyncio.sleep(0)
        return "Allow" if "safe" in request.prompt else "Deny"

    provider = ScriptedApprovalProvider(RuntimeError("provider down"), by_prompt, by_prompt)
    harness = make_coordinator(provider)
    prompts = iter(["first", "a safe one", "a risky one"])

    def asking(event: str, data: dict[str, Any]) -> HookResult:
        return ask(next(prompts))

    harness.coordinator.hooks.register("tool:pre", asking, 0, "guard")
    outcomes = [await harness.dispatch("tool:pre", {}) for _ in range(3)]
    assert [(o.allowed, o.approvals[0].via) for o in outcomes] == [
        (False, "error"),
        (True, "person"),
        (False, "person"),
    ]


async def test_no_answer_leaves_the_question_to_the_deadline() -> None:
    provider = ScriptedApprovalProvider.always(NO_ANSWER)
    harness = make_coordinator(provider)
    hurry = ask("Run it?", timeout=0.05, default="allow")
    harness.coordinator.hooks.register("tool:pre", returns(hurry), 0, "guard")

    outcome = await asyncio.wait_for(harness.dispatch("tool:pre", {}), 30)
    assert outcome.allowed and outcome.approvals[0].via == "timeout"
    assert provider.prompts == ["Run it?"]


async def test_without_answers_there_is_no_provider() -> None:
    harness = make_coordinator()
    harness.coordinator.hooks.register("tool:pre", returns(ask("Run it?")), 0, "guard")
    outcome = await harness.dispatch("tool:pre", {})
    assert harness.approvals is None
    assert not outcome.allowed and "no approval provider" in (outcome.reason or "")


async def test_the_harness_records_outcomes_injections_and_messages() -> None:
    harness = make_coordinator()
    note = HookResult(action="inject_context", context_injection="remember", user_message="noted")
    harness.coordinator.hooks.register("prompt:submit", returns(note), 0, "notes")

    outcome = await harness.dispatch("prompt:submit", {"prompt": "hi"})
    assert harness.recorder.events == ["prompt:submit"]
    assert harness.recorder.outcome("prompt:submit") is outcome
    assert harness.sink.contents == ["remember"]
    assert [(event, message.text) for event, message in harness.shown] == [
        ("prompt:submit", "noted")
    ]


async def test_an_attached_recorder_sees_calls_and_outcomes_until_detached() -> None:
    harness = make_coordinator()
    recorder = EventRecorder()
    detach = recorder.attach(harness.coordinator, "tool:pre", "tool:post")

    await harness.dispatch("tool:pre", {"tool_name": "bash"})
    await harness.dispatch("tool:post", {"tool_name": "bash"})
    await harness.dispatch("prompt:submit", {})  # observed, but no recording handler
    assert [(call.event, call.data["tool_name"]) for call in recorder.calls] == [
        ("tool:pre", "bash"),
        ("tool:post", "bash"),
    ]
    assert recorder.events == ["tool:pre", "tool:post", "prompt:submit"]

    detach()
    await harness.dispatch("tool:pre", {"tool_name": "ls"})
    assert len(recorder.calls) == 2 and len(recorder.outcomes) == 3
    assert harness.coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": []}
    assert harness.recorder.events[-1] == "tool:pre"  # the harness's own recorder stays


async def test_a_recorded_call_keeps_the_data_as_it_was() -> None:
    harness = make_coordinator()
    recorder = EventRecorder()
    harness.coordinator.hooks.register("tool:pre", recorder.handler(name="first"), 0)
    change = HookResult(action="modify", data={"tool_name": "changed"})
    harness.coordinator.hooks.register("tool:pre", returns(change), 1, "editor")
    harness.coordinator.hooks.register("tool:pre", recorder.handler(name="last"), 2)

    await harness.dispatch("tool:pre", {"tool_name": "bash"})
    assert [(c.handler, c.data["tool_name"]) for c in recorder.calls] == [
        ("first", "bash"),
        ("last", "changed"),
    ]


def test_live_processes_finds_a_process_by_its_arguments_until_it_has_ended() -> None:
    marker = f"ah-live-{os.getpid()}-{secrets.token_hex(4)}"
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", marker])
    try:
        # The kernel sets a new program's argument list a moment after the exec that
        # lets Popen return, so the child is looked for until it shows (bounded).
        deadline = time.monotonic() + 30
        found = live_processes(lambda argv: marker.encode() in argv)
        while not found and time.monotonic() < deadline:
            time.sleep(0.01)
            found = live_processes(lambda argv: marker.encode() in argv)
        assert found == [child.pid]
        child.kill()
        # Killed but not reaped: a zombie has ended, so it is not reported.
        assert wait_exited(child.pid, 30)
        assert live_processes(lambda argv: marker.encode() in argv) == []
    finally:
        child.kill()
        child.wait()


def test_a_sandbox_makes_a_project_and_a_home_for_a_binary_that_runs(tmp_path: Path) -> None:
    binary = tmp_path / "agent"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    made = make_sandbox(str(binary), tmp_path / "box", "Agent", project="ws", config=".agent")
    assert made == (binary, tmp_path / "box" / "ws", tmp_path / "box" / "home")
    assert made.project.is_dir() and (made.home / ".agent").is_dir()


def test_a_sandbox_for_a_binary_that_cannot_run_is_refused_before_anything_is_made(
    tmp_path: Path,
) -> None:
    binary = tmp_path / "agent"
    binary.write_text("not a program")
    with pytest.raises(FileNotFoundError, match="no Agent binary at"):
        make_sandbox(binary, tmp_path / "box", "Agent")
    assert not (tmp_path / "box").exists()
