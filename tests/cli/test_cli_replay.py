"""The replay engine: verdicts, who decided them, and the runtime's handling of a tool call."""

from __future__ import annotations

import json
from typing import Any

from amplifier_hooks import ContextInjector, Coordinator, HookResult
from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.cli.replay import Replayer
from amplifier_hooks.cli.report import details
from amplifier_hooks.cli.trace_files import TraceEvent
from amplifier_hooks.testing import ScriptedApprovalProvider


def pre(tool: str, line: int = 1, **extra: Any) -> TraceEvent:
    tool_input = {"command": extra.pop("command", "ls")} if tool == "bash" else {"path": "a.py"}
    return TraceEvent(line, "tool:pre", {"tool_name": tool, "tool_input": tool_input, **extra})


def post(tool: str, line: int = 2, **extra: Any) -> TraceEvent:
    tool_input = {"command": extra.pop("command", "ls")} if tool == "bash" else {"path": "a.py"}
    data = {"tool_name": tool, "tool_input": tool_input, "tool_result": "ok", **extra}
    return TraceEvent(line, "tool:post", data)


def deny_rm(event: str, data: dict[str, Any]) -> HookResult | None:
    if "rm" in str(data.get("tool_input", {}).get("command", "")):
        return HookResult(action="deny", reason="no rm")
    return None


def add_dry_run(event: str, data: dict[str, Any]) -> HookResult | None:
    command = data.get("tool_input", {}).get("command", "")
    if data.get("tool_name") == "bash" and command.startswith("make"):
        return HookResult(
            action="modify", data={**data, "tool_input": {"command": command + " --dry-run"}}
        )
    return None


async def test_a_denied_tool_call_has_its_tool_post_skipped() -> None:
    coordinator = Coordinator()
    coordinator.hooks.register("tool:pre", deny_rm, name="no_rm")
    seen: list[dict[str, Any]] = []
    coordinator.hooks.register("tool:post", lambda e, d: seen.append(d), name="watch")
    replayer = Replayer(coordinator)

    denied = await replayer.step(pre("bash", command="rm -rf build"))
    skipped = await replayer.step(post("bash", command="rm -rf build"))

    assert (denied.outcome, denied.by, denied.reason) == ("denied", ["no_rm"], "no rm")
    assert skipped.outcome == "skipped"
    assert skipped.note == "not run: its tool:pre (#1) was denied"
    assert skipped.handlers == []
    assert seen == []  # the hooks never saw a result of a tool that did not run
    assert replayer.summary.outcomes == {"denied": 1, "skipped": 1}


async def test_a_modified_tool_call_runs_with_the_modified_input() -> None:
    coordinator = Coordinator()
    coordinator.hooks.register("tool:pre", add_dry_run, name="dry_run")
    seen: list[dict[str, Any]] = []
    coordinator.hooks.register("tool:post", lambda e, d: seen.append(d), name="watch")
    replayer = Replayer(coordinator)

    modified = await replayer.step(pre("bash", command="make deploy"))
    after = await replayer.step(post("bash", command="make deploy"))

    assert (modified.outcome, modified.by) == ("modified", ["dry_run"])
    assert [(c.path, c.after) for c in modified.changes] == [
        ("tool_input.command", "make deploy --dry-run")
    ]
    assert after.outcome == "allowed"
    assert after.note == "tool_input as modified at its tool:pre (#1)"
    assert seen[0]["tool_input"] == {"command": "make deploy --dry-run"}


async def test_posts_pair_with_their_pre_by_call_id_else_by_tool_name() -> None:
    coordinator = Coordinator()
    coordinator.hooks.register("tool:pre", deny_rm, name="no_rm")
    replayer = Replayer(coordinator)
    await replayer.step(pre("bash", command="rm x", tool_use_id="t1"))
    await replayer.step(pre("bash", command="ls", tool_use_id="t2"))
    await replayer.step(pre("read_file"))
    # Results arrive out of order; the ids say which is which.
    assert (await replayer.step(post("bash", tool_use_id="t2"))).outcome == "allowed"
    assert (await replayer.step(post("bash", tool_use_id="t1"))).outcome == "skipped"
    assert (await replayer.step(post("read_file"))).outcome == "allowed"
    # A tool:post with no tool:pre before it is dispatched as it is.
    assert (await replayer.step(post("bash", command="rm y"))).outcome == "allowed"


async def test_tool_error_of_a_denied_call_is_skipped_too() -> None:
    coordinator = Coordinator()
    coordinator.hooks.register("tool:pre", deny_rm, name="no_rm")
    replayer = Replayer(coordinator)
    await replayer.step(pre("bash", command="rm x"))
    error = TraceEvent(3, "tool:error", {"tool_name": "bash", "error": "boom"})
    assert (await replayer.step(error)).outcome == "skipped"


def ask_for_bash(event: str, data: dict[str, Any]) -> HookResult | None:
    if data.get("tool_name") == "bash":
        return HookResult(action="ask_user", approval_prompt="Run it?\nls")
    return None


async def test_approvals_show_the_question_and_how_it_was_answered() -> None:
    for verdict in ("allow", "deny"):
        coordinator = Coordinator(approval_provider=PolicyApprovalProvider(default=verdict))
        coordinator.hooks.register("tool:pre", ask_for_bash, name="asker")
        step = await Replayer(coordinator).step(pre("bash"))
        assert step.asked
        [approval] = step.approvals
        assert (approval.source, approval.prompt, approval.via) == (
            "asker",
            "Run it?\nls",
            "policy",
        )
        if verdict == "allow":
            assert step.outcome_text == "asked → allowed" and approval.choice == "Allow"
            assert step.by == ["asker"]  # the TUI's `by` column names who asked
        else:
            assert step.outcome_text == "asked → denied" and step.by == ["asker"]
            assert approval.allowed is False


async def test_a_remembered_answer_says_remembered_not_asked() -> None:
    def ask(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(
            action="ask_user",
            approval_prompt="Run it?",
            approval_options=["Allow once", "Allow always", "Deny"],
        )

    person = ScriptedApprovalProvider("Allow always")  # a second question would fail
    coordinator = Coordinator(approval_provider=person)
    coordinator.hooks.register("tool:pre", ask, name="asker")
    replayer = Replayer(coordinator)
    first = await replayer.step(pre("bash"))
    assert first.outcome_text == "asked → allowed" and first.approvals[0].via == "person"
    second = await replayer.step(pre("bash", line=2))
    assert len(person.asked) == 1  # nobody was asked the second time...
    assert second.approvals[0].via == "remembered"
    assert second.outcome_text == "remembered → allowed"  # ...and the row says so
    line = details(second)[0].plain
    assert "allowed (Allow always via remembered)" in line


async def test_injections_messages_and_the_budget_are_reported() -> None:
    coordinator = Coordinator(injector=ContextInjector(budget_per_turn=20))

    def remind(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(
            action="inject_context",
            context_injection="Remember to run the tests. " * 2,
            ephemeral=True,
            user_message="reminded the model",
            user_message_level="warning",
        )

    coordinator.hooks.register("provider:request", remind, name="reminder")
    replayer = Replayer(coordinator)
    await replayer.step(TraceEvent(1, "prompt:submit", {"prompt": "go"}))
    first = await replayer.step(TraceEvent(2, "provider:request", {"model": "m"}))
    second = await replayer.step(TraceEvent(3, "provider:request", {"model": "m"}))

    [injected] = first.injected
    assert (injected.source, injected.role, injected.ephemeral) == ("reminder", "system", True)
    assert injected.tokens > 0 and injected.text.startswith("Remember")
    assert first.budget.turn == 1 and first.budget.used == injected.tokens
    assert first.budget.budget == 20
    # The second one does not fit in what is left of the turn: dropped, and said so.
    assert second.injected == []
    assert [(d.source, d.reason) for d in second.dropped] == [("reminder", "budget")]
    assert [(m.level, m.source, m.text) for m in first.messages] == [
        ("warning", "reminder", "reminded the model")
    ]
    summary = replayer.summary
    assert (summary.events, summary.dropped, summary.messages) == (3, 1, 2)
    assert summary.injected_tokens == injected.tokens


async def test_a_failing_handler_shows_in_the_trace_and_json_is_plain() -> None:
    coordinator = Coordinator()

    def broken(event: str, data: dict[str, Any]) -> None:
        raise RuntimeError("kaput")

    coordinator.hooks.register("tool:pre", broken, name="broken")
    replayer = Replayer(coordinator)
    step = await replayer.step(pre("read_file"))
    assert step.outcome == "allowed"  # fail open
    [run] = step.handlers
    assert (run.handler, run.failure) == ("broken", "raised")
    assert "kaput" in (run.error or "")
    record = json.loads(json.dumps(step.to_json()))
    assert record["type"] == "event" and record["outcome"] == "allowed"
    assert record["handlers"][0]["failure"] == "raised"
    summary = json.loads(json.dumps(replayer.summary.to_json()))
    assert summary["type"] == "summary" and summary["outcomes"] == {"allowed": 1}


async def test_a_failing_handler_is_shown_on_its_event_and_counted() -> None:
    def broken_guard(event: str, data: dict[str, Any]) -> None:
        raise RuntimeError("guard script not found")

    coordinator = Coordinator()
    coordinator.hooks.register("tool:pre", broken_guard, name="guard")
    coordinator.hooks.register("tool:pre", broken_guard, 1, name="strict_guard", fail_closed=True)
    replayer = Replayer(coordinator)
    step = await replayer.step(pre("bash"))

    assert [(f.handler, f.failure) for f in step.failures] == [
        ("guard", "raised"),
        ("strict_guard", "raised"),
    ]
    assert step.outcome == "denied" and step.by == ["strict_guard"]
    assert replayer.summary.failures == 2
    record = step.to_json()
    assert [f["handler"] for f in record["failures"]] == ["guard", "strict_guard"]
    lines = [line.plain for line in details(step)]
    assert any(
        "failed guard: raised: RuntimeError: guard script not found" in line for line in lines
    )
    assert any("strict_guard: raised, failing closed" in line for line in lines)
