"""A bundle's session settings reach the coordinator; the caller's arguments win."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from amplifier_hooks import HookResult
from amplifier_hooks.bundles import Bundle
from amplifier_hooks.bundles.loading import MountedBundle, build_coordinator
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.testing import EventRecorder, ScriptedApprovalProvider, returns

from .conftest import (
    FIXTURES,
    PROJECT_ROOT,
    echo,
)


async def test_session_settings_feed_the_injector_and_the_approvals() -> None:
    coord = await build_coordinator(FIXTURES / "child.md")
    assert (coord.injector.size_limit, coord.injector.budget_per_turn) == (4096, 2000)
    assert getattr(coord.approvals.provider, "via", None) == "policy"

    async def ask(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="ask_user", approval_prompt="Go?")

    coord.hooks.register("tool:pre", ask, -100, name="ask")
    allowed = await coord.dispatch("tool:pre", {"tool_name": "read_file"})
    denied = await coord.dispatch("tool:pre", {"tool_name": "write_file"})
    assert (allowed.allowed, denied.allowed) == (True, False)
    assert [d.via for d in allowed.approvals] == ["policy"]
    await coord.cleanup()


async def test_caller_arguments_win_over_the_bundle() -> None:
    from amplifier_hooks.injection import ContextInjector

    injector = ContextInjector(size_limit=1, budget_per_turn=1)
    person = ScriptedApprovalProvider.always("Allow")
    coord = await build_coordinator(
        FIXTURES / "child.md", injector=injector, approval_provider=person
    )
    assert coord.injector is injector and injector.size_limit == 1
    assert coord.approvals.provider is person
    await coord.cleanup()


async def test_factory_builds_a_coordinator_subclass() -> None:
    class MyCoordinator(Coordinator):
        pass

    coord = await build_coordinator(Bundle(hooks=[echo("a")]), factory=MyCoordinator)
    assert isinstance(coord, MyCoordinator)
    assert MountedBundle.of(coord) is not None
    await coord.cleanup()


async def test_policy_rules_on_top_of_an_auto_provider_answer_without_a_terminal(
    tmp_path: Path,
) -> None:
    """The first thing a user of default.md tries: add rules for unattended runs. The
    guard lets everyday work through with no question; the policy answers what it asks."""
    root = PROJECT_ROOT
    bundle = tmp_path / "mine.yaml"
    bundle.write_text(
        f"includes: [{root / 'bundles' / 'default.md'}]\n"
        "session:\n"
        "  approvals:\n"
        "    store: ':memory:'\n"
        "    policy:\n"
        "      rules:\n"
        "        - {decision: allow, tool: bash, command: 'git stash drop*'}\n"
        "        - {decision: allow, tool: bash, command: 'git branch -D *'}\n"
        "hooks:\n"
        "  - module: ah-logging\n"
        f"    config: {{path: {tmp_path / 'log.jsonl'}}}\n",
        encoding="utf-8",
    )
    coordinator = await build_coordinator(bundle)  # pytest's stdin is not a terminal
    try:
        everyday = await coordinator.dispatch(
            "tool:pre", {"tool_name": "bash", "tool_input": {"command": "git status"}}
        )
        allowed = await coordinator.dispatch(
            "tool:pre",
            {"tool_name": "bash", "tool_input": {"command": "git branch -D old-feature"}},
        )
        denied = await coordinator.dispatch(
            "tool:pre",
            {"tool_name": "bash", "tool_input": {"command": "git push -f origin my-feature"}},
        )
    finally:
        await coordinator.cleanup()
    assert everyday.allowed and not everyday.approvals
    assert everyday.granted is not None and "git-everyday" in (everyday.granted.reason or "")
    assert allowed.allowed and allowed.approvals[0].via == "policy"
    assert not denied.allowed and denied.approvals[0].via == "policy"


async def test_the_gate_a_bundle_builds_sends_its_events_to_the_observers() -> None:
    person = ScriptedApprovalProvider.always("Allow")
    coord = await build_coordinator(Bundle(name="b"), approval_provider=person)
    recorder = EventRecorder()
    coord.add_observer(recorder.observe)
    ask = HookResult(action="ask_user", approval_prompt="Run it?", approval_timeout=30)
    coord.hooks.register("tool:pre", returns(ask), 0, "guard")
    try:
        outcome = await coord.dispatch("tool:pre", {"tool_name": "bash"})
    finally:
        await coord.cleanup()
    assert outcome.allowed and person.prompts == ["Run it?"]
    assert recorder.events == ["approval:required", "approval:granted", "tool:pre"]
