"""Input built to break a guard (issue 24's bad-input target): a 1 MB command, 10,000
pipes, deeply nested ``$( )``, NUL bytes, text that is not UTF-8. Through the ah-guard
module as a bundle mounts it, each must be asked or denied -- never allowed, never an
exception -- and within the handler's deadline: the registry runs every handler under
its timeout and records a ``timeout`` (or ``raised``) failure in the trace, so a trace
with no failure is a decision made in time, however busy the machine."""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import events
from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.cli.probe import ToolCall, decision_of, event_data
from amplifier_hooks.cli.session import PROJECT_ROOT, open_coordinator
from amplifier_hooks.hosts import CLAUDE_CODE, answer_in_process
from amplifier_hooks.session.coordinator import Coordinator

GUARD_SOURCE = PROJECT_ROOT / "modules" / "ah-guard"

BAD_COMMANDS = {
    "1 MB command": "ls " + "a " * 500_000,
    "1 MB rm": "rm -rf " + "x" * 1_000_000,
    "10,000 pipes": "ls" + " | cat" * 10_000,
    "10,000 pipes to rm": "cat x" + " | cat" * 10_000 + " | xargs rm -rf ~",
    "nested $( ) 1,000 deep": "echo " + "$(" * 1_000 + "ls" + ")" * 1_000,
    "nested backticks": "echo " + "`echo " * 200 + "ls" + "`" * 200,
    "NUL in a word": "l\x00s -la",
    "NUL before rm": "ls\x00; rm -rf ~",
    "lone surrogates": "ls \udcff\udcfe",
    "surrogate command name": "\udcffrm -rf ~",
}


@pytest.fixture
def guard_bundle(tmp_path: Path) -> Path:
    path = tmp_path / "guard.yaml"
    path.write_text(
        f"bundle: {{name: guard-only}}\nhooks:\n  - module: ah-guard\n    source: {GUARD_SOURCE}\n"
    )
    return path


@pytest.fixture
async def coordinator(guard_bundle: Path, tmp_path: Path) -> AsyncIterator[Coordinator]:
    made, _ = await open_coordinator(
        load_bundle(guard_bundle), provider=PolicyApprovalProvider(), store=":memory:"
    )
    await made.dispatch(events.SESSION_START, {"workspace": str(tmp_path)})
    try:
        yield made
    finally:
        await made.cleanup()


def test_the_guard_runs_under_a_deadline(coordinator: Coordinator) -> None:
    guards = [h for h in coordinator.hooks.handler_info() if h.event == events.TOOL_PRE]
    assert guards and all(h.fail_closed for h in guards)
    assert all(h.timeout and not math.isinf(h.timeout) for h in guards), guards


@pytest.mark.parametrize("command", list(BAD_COMMANDS.values()), ids=list(BAD_COMMANDS))
async def test_bad_input_is_asked_or_denied_in_time(
    coordinator: Coordinator, command: str, tmp_path: Path
) -> None:
    call = ToolCall("bash", {"command": command}, str(tmp_path), str(tmp_path / "home"))
    resolution = await coordinator.hooks.emit(events.TOOL_PRE, event_data(call))
    failures = [(e.handler, e.failure, e.error) for e in resolution.trace if e.failure]
    assert failures == []  # no timeout, no exception: the guard decided, in time
    # A handler that blocks cannot be cut off at its deadline; the registry's own timing
    # of it says whether it kept to it.
    deadlines = {h.name: h.timeout for h in coordinator.hooks.handler_info(events.TOOL_PRE)}
    late = [(e.handler, e.duration) for e in resolution.trace if e.duration > deadlines[e.handler]]
    assert late == []
    assert decision_of(resolution) in ("deny", "ask"), resolution.reason
    assert resolution.granted is None


async def test_a_hook_input_that_is_not_utf8_is_denied(tmp_path: Path, guard_bundle: Path) -> None:
    payload: dict[str, Any] = {
        "hook_event_name": "PreToolUse",
        "session_id": "bad-bytes",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_input": {"command": "ls REPLACE"},
    }
    raw = json.dumps(payload).replace("REPLACE", "\\udcff").encode()
    answer = await answer_in_process(guard_bundle, json.loads(raw), CLAUDE_CODE)
    output = answer.output or {}
    decision = output.get("hookSpecificOutput", {}).get("permissionDecision")
    assert decision in ("deny", "ask"), answer
