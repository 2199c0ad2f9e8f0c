"""ah-logging records the final outcome of every dispatched event, exactly once: denies
(which no later handler sees), modifies, approvals and injections; secrets scrubbed."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import amplifier_module_ah_redaction as redaction
import pytest
from amplifier_module_ah_logging import mount

from amplifier_hooks import HookResult
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.testing import ScriptedApprovalProvider, returns


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def test_a_denied_call_is_logged_once_with_who_denied(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    deny = HookResult(action="deny", reason="rm is not allowed")
    coordinator.hooks.register("tool:pre", returns(deny), -100, "no_rm")

    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash", "tool_input": "rm"})
    await coordinator.dispatch("tool:pre", {"tool_name": "grep"})
    await coordinator.cleanup()

    assert not outcome.allowed
    assert outcome.resolution is not None
    # The logging handler never ran (the deny ended the chain), yet the call is recorded.
    assert [t.handler for t in outcome.resolution.trace] == ["no_rm"]
    denied, second = records(log)
    assert denied["event"] == "tool:pre" and denied["data"]["tool_input"] == "rm"
    assert denied["outcome"] == {
        "allowed": False,
        "action": "deny",
        "denied_by": "no_rm",
        "reason": "rm is not allowed",
        "modified_by": [],
        "approvals": [],
        "injected": {"count": 0, "ephemeral": 0, "tokens": 0, "dropped": 0},
    }
    assert second["outcome"]["allowed"] is False  # the same hook denies every tool:pre


async def test_a_modified_call_records_who_modified_and_the_final_data(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    first = HookResult(action="modify", data={"tool_name": "bash", "dry_run": True})
    coordinator.hooks.register("tool:pre", returns(first), 0, "dry_run")
    # After the logger's priority: the record still shows this change.
    late = HookResult(action="modify", data={"tool_name": "bash", "dry_run": True, "late": 1})
    coordinator.hooks.register("tool:pre", returns(late), 2000, "late_edit")

    await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    await coordinator.cleanup()

    (record,) = records(log)
    assert record["outcome"]["allowed"] is True
    assert record["outcome"]["action"] == "modify"
    assert record["outcome"]["modified_by"] == ["dry_run", "late_edit"]
    assert record["data"]["dry_run"] is True and record["data"]["late"] == 1


async def test_approvals_are_in_the_outcome_and_approval_events_logged_once(
    tmp_path: Path,
) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator(approval_provider=ScriptedApprovalProvider.always("Deny"))
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    ask = HookResult(action="ask_user", approval_prompt="Run it?", approval_timeout=1)
    coordinator.hooks.register("tool:pre", returns(ask), 0, "asker")

    await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    await coordinator.cleanup()

    logged = records(log)
    counts = Counter(r["event"] for r in logged)
    # The gate's approval:* events go through dispatch too, so each is logged once, with
    # its outcome; tool:pre once, last, because its record waits for the verdict.
    assert counts == {"approval:required": 1, "approval:denied": 1, "tool:pre": 1}
    assert [r["event"] for r in logged] == ["approval:required", "approval:denied", "tool:pre"]
    assert all(r["outcome"]["allowed"] for r in logged[:-1])
    outcome = logged[-1]["outcome"]
    assert (outcome["allowed"], outcome["action"], outcome["denied_by"]) == (
        False,
        "deny",
        "asker",
    )
    assert outcome["approvals"] == [
        {"source": "asker", "choice": "Deny", "via": "person", "allowed": False}
    ]


async def test_injections_are_counted_with_their_tokens(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    persisted = HookResult(action="inject_context", context_injection="lint: 3 warnings")
    ephemeral = HookResult(action="inject_context", context_injection="now: 12:00", ephemeral=True)
    coordinator.hooks.register("prompt:submit", returns(persisted), 0, "linter")
    coordinator.hooks.register("prompt:submit", returns(ephemeral), 1, "clock")

    outcome = await coordinator.dispatch("prompt:submit", {"prompt": "x"})
    await coordinator.cleanup()

    expected_tokens = sum(m["metadata"]["tokens"] for m in (*outcome.injected, *outcome.ephemeral))
    assert expected_tokens > 0
    (record,) = records(log)
    assert record["outcome"]["injected"] == {
        "count": 2,
        "ephemeral": 1,
        "tokens": expected_tokens,
        "dropped": 0,
    }
    assert "lint: 3 warnings" not in json.dumps(record)  # counts, not the text


async def test_direct_and_nested_emits_are_logged_once_each(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))

    async def notifies(event: str, data: dict[str, Any]) -> None:
        await coordinator.hooks.emit("session:resume", {"why": "nested"})

    coordinator.hooks.register("prompt:submit", notifies, 0, "notifier")

    await coordinator.dispatch("prompt:submit", {"prompt": "dispatched"})
    await coordinator.hooks.emit("prompt:submit", {"prompt": "direct"})
    await coordinator.cleanup()

    assert [(r["event"], "outcome" in r) for r in records(log)] == [
        ("session:resume", False),  # nested in the dispatch, written as it happened
        ("prompt:submit", True),  # the dispatch, written when its outcome was final
        ("session:resume", False),
        ("prompt:submit", False),  # the direct emit: the handler's record
    ]


async def test_secrets_in_the_outcome_are_scrubbed(tmp_path: Path) -> None:
    key = "sk-proj-" + "Qq7" * 10
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    coordinator.register_cleanup(await redaction.mount(coordinator, {}))
    deny = HookResult(action="deny", reason=f"command leaks {key}")
    coordinator.hooks.register("tool:pre", returns(deny), 0, "leak_guard")

    await coordinator.dispatch("tool:pre", {"tool_name": "bash", "tool_input": key})
    await coordinator.cleanup()

    assert key not in log.read_text()
    (record,) = records(log)
    assert record["outcome"]["reason"] == "command leaks [REDACTED:openai_api_key]"


async def test_a_mount_that_fails_half_way_leaves_nothing_registered(tmp_path: Path) -> None:
    class NoObservers(Coordinator):
        """A host whose observers are broken: the mount fails after registering its handler."""

        def add_observer(self, callback: Any, *, timeout: float | None = 5.0) -> Any:
            raise RuntimeError("observers are down")

    log = tmp_path / "e.jsonl"
    host = NoObservers()
    with pytest.raises(RuntimeError, match="observers are down"):
        await mount(host, {"path": str(log)})
    assert host.hooks.events() == []  # the handler, on every event, taken back
    await host.hooks.emit("tool:pre", {"tool_name": "bash"})
    assert not log.exists() or records(log) == []


async def test_handlers_that_fail_or_time_out_are_not_taken_for_modifiers(tmp_path: Path) -> None:
    """Who modified is read off the trace among handlers that raised, that outlasted
    their timeout and that continued: only the one that modified is named."""
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))

    async def raises(event: str, data: dict[str, Any]) -> None:
        raise RuntimeError("broken hook")

    async def too_slow(event: str, data: dict[str, Any]) -> None:
        await asyncio.Event().wait()  # never set: only its timeout ends it

    edit = HookResult(action="modify", data={"tool_name": "bash", "dry_run": True})
    coordinator.hooks.register("tool:pre", raises, 0, "raises")
    coordinator.hooks.register("tool:pre", too_slow, 1, "too_slow", timeout=0.01)
    coordinator.hooks.register("tool:pre", returns(edit), 2, "dry_run")
    coordinator.hooks.register("tool:pre", returns(None), 3, "quiet")

    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    await coordinator.cleanup()

    failures = {t.handler: t.failure for t in outcome.resolution.trace if t.failure}
    assert failures == {"raises": "raised", "too_slow": "timeout"}
    (record,) = records(log)
    assert record["outcome"]["modified_by"] == ["dry_run"]
    assert record["outcome"]["allowed"] is True and record["data"]["dry_run"] is True
