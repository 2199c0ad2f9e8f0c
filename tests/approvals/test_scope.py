"""Remembered decisions are scoped (workspace + the request answered), the prompt says so,
and the fixed modes neither use nor write them (issue 11, point 8)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from amplifier_hooks.approvals import (
    ApprovalGate,
    ApprovalRequest,
    ApprovalStore,
    PolicyApprovalProvider,
)
from amplifier_hooks.approvals.requests import build_request
from amplifier_hooks.bundles import Bundle
from amplifier_hooks.cli.run import describe_approvals
from amplifier_hooks.cli.session import policy_provider
from amplifier_hooks.testing import ScriptedApprovalProvider
from amplifier_hooks.ui.console import ConsoleApprovalProvider

from .conftest import ask

ALWAYS = ["Allow once", "Allow always", "Deny"]


def _data(command: str, cwd: str) -> dict[str, object]:
    return {"tool_name": "bash", "tool_input": {"command": command}, "cwd": cwd}


async def test_always_applies_in_its_workspace_only() -> None:
    store = ApprovalStore(":memory:")
    gate = ApprovalGate(ScriptedApprovalProvider("Allow always", "Deny"), store)
    first = await gate.decide(ask(options=ALWAYS), "tool:pre", _data("make", "/w/a"))
    assert first.remembered
    again = await gate.decide(ask(options=ALWAYS), "tool:pre", _data("make", "/w/a"))
    assert (again.via, again.allowed) == ("remembered", True)
    elsewhere = await gate.decide(ask(options=ALWAYS), "tool:pre", _data("make", "/w/b"))
    assert (elsewhere.via, elsewhere.allowed) == ("person", False)
    [row] = await store.list_remembered()
    assert row.workspace == "/w/a"


async def test_always_covers_the_request_it_answered_not_another_command() -> None:
    gate = ApprovalGate(ScriptedApprovalProvider("Allow always", "Deny"))
    await gate.decide(ask(options=ALWAYS), "tool:pre", _data("rm -rf build", "/w"))
    other = await gate.decide(ask(options=ALWAYS), "tool:pre", _data("rm -rf /", "/w"))
    assert (other.via, other.allowed) == ("person", False)


async def test_a_hook_can_ask_for_a_global_scope() -> None:
    gate = ApprovalGate(ScriptedApprovalProvider("Allow always"))
    wide = ask(options=ALWAYS, data={"approval_scope": "global"})
    await gate.decide(wide, "tool:pre", _data("make", "/w/a"))
    there = await gate.decide(wide, "tool:pre", _data("make", "/w/b"))
    assert (there.via, there.allowed) == ("remembered", True)


async def test_the_gate_workspace_is_the_default_scope(tmp_path: Path) -> None:
    gate = ApprovalGate(ScriptedApprovalProvider("Allow always"), workspace=str(tmp_path))
    decision = await gate.decide(ask(options=ALWAYS), "tool:pre", {"command": "ls"})
    assert decision.remembered
    [row] = await gate.backend.list_remembered()
    assert row.workspace == str(tmp_path)


def test_the_prompt_names_the_scope_next_to_always() -> None:
    request = build_request(ask(options=ALWAYS), "tool:pre", _data("make", "/w/a"))
    assert request.memory_note() == '"Allow always": don\'t ask again for this request, in /w/a'
    assert build_request(ask(), "tool:pre", {}).memory_note() is None
    out = io.StringIO()
    panel = ConsoleApprovalProvider().render(request, deadline=float("inf"))
    Console(file=out, width=120).print(panel)
    assert "don't ask again for this request, in /w/a" in out.getvalue()


async def test_fixed_modes_neither_consult_nor_write_memory() -> None:
    store = ApprovalStore(":memory:")
    person = ApprovalGate(ScriptedApprovalProvider("Allow always"), store, workspace="/w")
    await person.decide(ask(options=ALWAYS), "tool:pre", {"command": "make"})
    fixed = policy_provider(Bundle(name="b"), "deny")
    assert isinstance(fixed, PolicyApprovalProvider) and fixed.uses_memory is False
    denying = ApprovalGate(fixed, store, workspace="/w")
    decision = await denying.decide(ask(options=ALWAYS), "tool:pre", {"command": "make"})
    assert (decision.allowed, decision.via) == (False, "policy")
    allowing = ApprovalGate(policy_provider(Bundle(name="b"), "allow"), store, workspace="/w")
    other = await allowing.decide(ask("Other?", options=ALWAYS), "tool:pre", {})
    assert other.allowed and not other.remembered
    assert len(await store.list_remembered()) == 1


def test_the_run_header_says_what_applies() -> None:
    bundle = Bundle(name="b")
    assert describe_approvals(bundle, "deny") == (
        "--approvals deny: every question denied; remembered answers are not used"
    )
    assert "remembered answer" in describe_approvals(bundle, "policy")


def test_a_request_built_by_hand_remembers_everywhere() -> None:
    assert ApprovalRequest(prompt="x").scope_text == "this request, in every workspace"
