"""Modules written against Amplifier's API (tests/fixtures/amplifier/modules) mount and run
unchanged: the amplifier_core surface, the module coordinator, session identity, shared
attributes and approvals through the module's own provider hook."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from amplifier_hooks import Coordinator, HookRegistry, HookResult
from amplifier_hooks.amplifier.alias import (
    install_amplifier_core_alias,
    uninstall_amplifier_core_alias,
)
from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.bundles.loading import build_coordinator
from amplifier_hooks.events import is_valid_event_name
from amplifier_hooks.modules.module_hooks import ModuleHooks
from amplifier_hooks.testing import ScriptedApprovalProvider
from amplifier_hooks.ui.approval_app import ApprovalApp, TextualApprovalProvider
from amplifier_hooks.ui.approval_screen import ApprovalScreen

MODULES = Path(__file__).resolve().parents[1] / "fixtures" / "amplifier" / "modules"
TOOL_BASH_LS = {"tool_name": "bash", "tool_input": {"command": "ls -la"}}
TOOL_BASH_RM = {"tool_name": "bash", "tool_input": {"command": "rm -rf build"}}


@pytest.fixture(autouse=True)
def fresh_imports() -> Iterator[None]:
    """Each test imports the fixture modules (and the alias) afresh."""

    def purge() -> None:
        uninstall_amplifier_core_alias()
        for name in [n for n in sys.modules if n.startswith("amplifier_module_amp_")]:
            del sys.modules[name]

    purge()
    yield
    purge()


def bundle(tmp_path: Path, body: str, name: str = "amp.yaml") -> Path:
    path = tmp_path / name
    path.write_text(body.replace("MODULES", str(MODULES)), encoding="utf-8")
    return path


def entry(module: str, config: str = "") -> str:
    text = f"  - module: {module}\n    source: MODULES/{module}\n"
    return text + (f"    config: {config}\n" if config else "")


# -- the amplifier_core surface ----------------------------------------------------------


async def test_every_name_a_hook_module_imports_is_there(tmp_path: Path) -> None:
    coord = await build_coordinator(bundle(tmp_path, "hooks:\n" + entry("amp-shell-guard")))
    core = importlib.import_module("amplifier_core")
    for name in (
        "HookRegistry",
        "HookResult",
        "ModuleCoordinator",
        "ApprovalProvider",
        "ApprovalRequest",
        "ApprovalResponse",
        "HookHandler",
        "TestCoordinator",
        "MockCoordinator",
        "EventRecorder",
        "create_test_coordinator",
        "wait_for",
    ):
        assert hasattr(core, name), name
    events = importlib.import_module("amplifier_core.events")
    assert {"tool:pre", "session:start:debug", "provider:throttle"} <= set(events.ALL_EVENTS)
    assert all(is_valid_event_name(e) for e in events.ALL_EVENTS)
    assert events.APPROVAL_REQUIRED == "approval:required"
    for sub, name in [
        ("models", "HookResult"),
        ("hooks", "HookRegistry"),
        ("coordinator", "ModuleCoordinator"),
        ("interfaces", "ApprovalRequest"),
        ("testing", "create_test_coordinator"),
    ]:
        assert hasattr(importlib.import_module(f"amplifier_core.{sub}"), name)
    assert core.HookResult is HookResult and issubclass(core.HookRegistry, HookRegistry)
    await coord.cleanup()


async def test_the_reference_test_helpers_run_a_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module's own test suite written for the reference works against the alias."""
    assert install_amplifier_core_alias()
    monkeypatch.syspath_prepend(str(MODULES / "amp-shell-guard"))
    from amplifier_core.testing import EventRecorder, create_test_coordinator, wait_for
    from amplifier_module_amp_shell_guard import mount  # type: ignore[import-not-found]

    test_coordinator = create_test_coordinator()
    assert test_coordinator.session_id == "test-session"
    recorder = EventRecorder()
    test_coordinator.hooks.register("tool:pre", recorder.record, priority=100, name="rec")
    await mount(test_coordinator, {})
    result = await test_coordinator.hooks.emit("tool:pre", TOOL_BASH_LS)
    assert result.action == "continue"
    assert await wait_for(lambda: len(recorder.get_events("tool:pre")) == 1)
    assert recorder.get_events()[0][1]["session_id"] == "test-session"
    denied = await test_coordinator.hooks.emit(
        "tool:pre", {"tool_name": "bash", "tool_input": {"command": "rm -rf /"}}
    )
    assert denied.action == "deny" and "amp-shell-guard" in (denied.reason or "")
    await test_coordinator.cleanup()


# -- the module coordinator -----------------------------------------------------------------


async def test_get_hooks_is_the_modules_own_registry_and_goes_with_it(tmp_path: Path) -> None:
    coord = await build_coordinator(bundle(tmp_path, "hooks:\n" + entry("amp-shell-guard")))
    [info] = coord.hooks.handler_info("tool:pre")
    assert (info.name, info.priority, info.owner) == ("amp-shell-guard", -5, "amp-shell-guard")
    allowed = await coord.dispatch("tool:pre", TOOL_BASH_LS)
    denied = await coord.dispatch(
        "tool:pre", {"tool_name": "bash", "tool_input": {"command": "rm -rf / --no-preserve"}}
    )
    assert allowed.allowed and not denied.allowed
    assert denied.denied_by == "amp-shell-guard"
    await coord.cleanup()
    assert coord.hooks.handler_info() == []


async def test_mount_points_and_config_answer_like_the_reference(tmp_path: Path) -> None:
    path = bundle(tmp_path, "hooks:\n" + entry("amp-approval"))
    coord = await build_coordinator(path, session_id="s-1", parent_id="p-0")
    ask = coord.get_capability("test.amp_approval")
    view = ask.hooks  # what the module got from coordinator.get("hooks")
    assert isinstance(view, ModuleHooks) and view.list_handlers("tool:pre") == {
        "tool:pre": ["amp-approval"]
    }
    assert [h.owner for h in coord.hooks.handler_info("tool:pre")] == ["amp-approval"]
    assert coord.get("hooks") is coord.hooks
    assert coord.get("tools") == {} and coord.get("orchestrator") is None
    coord.mount("tools", object(), name="bash")
    assert set(coord.get("tools")) == {"bash"} and set(coord.mount_points) >= {
        "hooks",
        "tools",
        "providers",
        "orchestrator",
        "context",
        "agents",
    }
    with pytest.raises(ValueError, match="unknown mount point 'nope'"):
        coord.get("nope")
    assert (coord.session_id, coord.parent_id) == ("s-1", "p-0")
    assert coord.config["hooks"][0]["module"] == "amp-approval"
    assert coord.config["session"]["injection_budget_per_turn"] == 10_000
    await coord.cleanup()


async def test_modules_share_attributes_set_on_the_coordinator(tmp_path: Path) -> None:
    body = "hooks:\n" + entry("amp-todo-writer") + entry("amp-todo-nudge")
    coord = await build_coordinator(bundle(tmp_path, body))
    before = await coord.dispatch("provider:request", {})
    assert before.ephemeral == []
    todos = [{"content": "write tests", "status": "in_progress"}]
    await coord.dispatch("tool:post", {"tool_name": "todo", "tool_input": {"todos": todos}})
    after = await coord.dispatch("provider:request", {})
    [message] = after.ephemeral
    assert message["content"] == "Open todos:\n- write tests (in_progress)"
    assert message["role"] == "user"
    assert coord.shared == {"todo_state": todos}
    await coord.cleanup()


def test_a_module_cannot_replace_the_coordinators_own_attributes() -> None:
    from amplifier_hooks.amplifier.testing import TestCoordinator

    view = TestCoordinator()
    for name in ("session_id", "approvals", "dispatch", "capabilities", "_shared", "mount_points"):
        with pytest.raises(AttributeError, match="belongs to the coordinator"):
            setattr(view, name, "x")
    view.session_state = {"turn": 1}
    assert view.coordinator.session_state == {"turn": 1}  # type: ignore[attr-defined]
    del view.session_state
    assert not hasattr(view.coordinator, "session_state")


# -- session identity ---------------------------------------------------------------------


async def test_a_logger_writes_per_session_with_ids_on_every_event(tmp_path: Path) -> None:
    template = str(tmp_path / "logs" / "{session_id}.jsonl")
    path = bundle(
        tmp_path, "hooks:\n" + entry("amp-session-log", f"{{path_template: '{template}'}}")
    )
    coord = await build_coordinator(path, session_id="sess-9", parent_id="sess-1")
    await coord.dispatch("session:start", {})
    await coord.dispatch("tool:pre", TOOL_BASH_LS)
    await coord.dispatch("tool:post", {"session_id": "given", "tool_name": "bash"})
    await coord.cleanup()
    own = [
        json.loads(line) for line in (tmp_path / "logs" / "sess-9.jsonl").read_text().splitlines()
    ]
    assert [(r["event"], r["session_id"], r["parent_id"]) for r in own] == [
        ("session:start", "sess-9", "sess-1"),
        ("tool:pre", "sess-9", "sess-1"),
    ]
    # An emitter's own session_id wins over the stamp.
    given = (tmp_path / "logs" / "given.jsonl").read_text().splitlines()
    assert [json.loads(line)["event"] for line in given] == ["tool:post"]


def test_every_coordinator_has_a_session_id() -> None:
    first, second = Coordinator(), Coordinator()
    assert first.session_id and first.session_id != second.session_id
    assert first.parent_id is None
    with pytest.raises(ValueError, match="session_id"):
        Coordinator(session_id="")


async def test_the_stamp_reaches_handlers_but_not_an_unheard_emit() -> None:
    coord = Coordinator(session_id="s", parent_id="p")
    seen: list[dict[str, Any]] = []
    coord.hooks.register("tool:pre", lambda e, d: seen.append(d), name="watch")
    await coord.dispatch("tool:pre", {"tool_name": "x"})
    assert (seen[0]["session_id"], seen[0]["parent_id"]) == ("s", "p")
    quiet = await coord.dispatch("tool:post", {"tool_name": "x"})
    assert quiet.data == {"tool_name": "x"}


# -- approvals through the module's provider hook ------------------------------------------


async def shown(pilot: Pilot[Any], provider: TextualApprovalProvider) -> ApprovalScreen:
    """The approval screen, once it is on top, laid out and accepting answers."""

    def ready() -> bool:
        screen = provider.current
        return (
            screen is not None
            and screen.armed
            and pilot.app.screen is screen
            and all(button.region.width for button in screen.query(Button))
        )

    deadline = time.monotonic() + 10
    while not ready():
        assert time.monotonic() < deadline, "the approval screen never became ready"
        await pilot.pause(0.01)
    await pilot.pause()
    assert provider.current is not None
    return provider.current


APPROVAL_BUNDLE = """\
session:
  approvals:
    policy:
      default: deny
      rules:
        - {tool: bash, command: "ls*", decision: allow}
hooks:
"""


async def test_the_module_is_answered_by_the_policy_provider(tmp_path: Path) -> None:
    coord = await build_coordinator(bundle(tmp_path, APPROVAL_BUNDLE + entry("amp-approval")))
    decided: list[str] = []
    coord.hooks.register("approval:granted", lambda e, d: decided.append(e), name="g")
    coord.hooks.register("approval:denied", lambda e, d: decided.append(e), name="d")
    listed = await coord.dispatch("tool:pre", TOOL_BASH_LS)
    removed = await coord.dispatch("tool:pre", TOOL_BASH_RM)
    assert listed.allowed and not removed.allowed
    assert removed.denied_by == "amp-approval"
    responses = coord.get_capability("test.amp_approval").responses
    assert [type(r).__name__ for r in responses] == ["AmplifierApprovalResponse"] * 2
    assert [r.approved for r in responses] == [True, False]
    assert removed.reason == responses[1].reason
    # Both the gate and the module announce each decision.
    assert decided.count("approval:granted") == 2 and decided.count("approval:denied") == 2
    await coord.cleanup()


async def test_without_a_provider_the_module_is_refused(tmp_path: Path) -> None:
    coord = await build_coordinator(bundle(tmp_path, "hooks:\n" + entry("amp-approval")))
    outcome = await coord.dispatch("tool:pre", TOOL_BASH_LS)
    assert not outcome.allowed
    assert outcome.reason is not None and "no approval provider is configured" in outcome.reason
    await coord.cleanup()


async def test_an_approving_modules_handlers_are_untimed_and_fail_closed(
    tmp_path: Path,
) -> None:
    coord = await build_coordinator(bundle(tmp_path, APPROVAL_BUNDLE + entry("amp-approval")))
    [info] = coord.hooks.handler_info("tool:pre")
    assert (info.timeout, info.fail_closed) == (None, True)
    await coord.cleanup()


async def test_remembered_answers_reach_the_module(tmp_path: Path) -> None:
    person = ScriptedApprovalProvider("Allow always")  # a second question would fail
    path = bundle(tmp_path, "hooks:\n" + entry("amp-approval"))
    coord = await build_coordinator(path, approval_provider=person)
    first = await coord.dispatch("tool:pre", TOOL_BASH_LS)
    second = await coord.dispatch("tool:pre", TOOL_BASH_LS)
    assert first.allowed and second.allowed and len(person.asked) == 1
    responses = coord.get_capability("test.amp_approval").responses
    assert [(r.approved, r.remember) for r in responses] == [(True, True), (True, True)]
    await coord.cleanup()


async def test_the_module_is_answered_through_the_textual_screen(tmp_path: Path) -> None:
    app: ApprovalApp[None] = ApprovalApp(guard=0.0)
    path = bundle(tmp_path, "hooks:\n" + entry("amp-approval"))
    async with app.run_test(size=(100, 30)) as pilot:
        coord = await build_coordinator(path, approval_provider=app.provider)
        task = asyncio.create_task(coord.dispatch("tool:pre", TOOL_BASH_RM))
        screen = await shown(pilot, app.provider)
        assert screen.request.prompt == "Execute: rm -rf build (risk: high)"
        assert screen.request.source == "amp-approval"
        labels = [str(b.label) for b in screen.query(Button)]
        assert any("Allow once" in label for label in labels)
        await pilot.press("1")  # the first option: Allow once
        outcome = await asyncio.wait_for(task, 5)
        assert outcome.allowed
        [response] = coord.get_capability("test.amp_approval").responses
        assert response.approved and not response.remember
        await coord.cleanup()


async def test_a_policy_provider_given_directly_answers_too(tmp_path: Path) -> None:
    provider = PolicyApprovalProvider(rules=[], default="allow")
    path = bundle(tmp_path, "hooks:\n" + entry("amp-approval"))
    coord = await build_coordinator(path, approval_provider=provider)
    assert (await coord.dispatch("tool:pre", TOOL_BASH_RM)).allowed
    await coord.cleanup()


SERVICES = """
from amplifier_core import HookResult

cleaned = []


async def mount(coordinator, config=None):
    coordinator.hooks.set_default_fields(agent="builder")
    coordinator.register_contributor("observability.events", "amp-services", lambda: ["amp:tick"])
    coordinator.register_capability("amp.greeting", lambda: "hello")
    coordinator.register_cleanup(lambda: cleaned.append("cleanup"))
    coordinator.hooks.on("amp:tick", lambda e, d: HookResult(), name="amp-tick")
"""


async def test_contributors_capabilities_cleanups_and_default_fields(tmp_path: Path) -> None:
    package = tmp_path / "amp-services" / "amplifier_module_amp_services"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(SERVICES, encoding="utf-8")
    path = bundle(tmp_path, f"hooks:\n  - {{module: amp-services, source: {package.parent}}}\n")
    coord = await build_coordinator(path)
    assert "amp:tick" in await coord.known_events()
    assert coord.get_capability("amp.greeting")() == "hello"
    seen: list[dict[str, Any]] = []
    coord.hooks.register("tool:pre", lambda e, d: seen.append(d), name="watch")
    await coord.dispatch("tool:pre", {})
    assert seen[0]["agent"] == "builder"
    module = sys.modules["amplifier_module_amp_services"]
    await coord.cleanup()
    assert module.cleaned == ["cleanup"]
    assert coord.get_capability("amp.greeting") is None
    assert await coord.collect_contributions("observability.events") == []


async def test_the_deliberate_differences_hold_for_amplifier_style_handlers() -> None:
    """docs/amplifier.md: in-place edits stay with their handler; a deny carries the data
    as modified so far."""
    assert install_amplifier_core_alias()
    from amplifier_core import HookResult as AliasResult
    from amplifier_core.testing import create_test_coordinator

    view = create_test_coordinator()
    seen: list[dict[str, Any]] = []

    def edits_in_place(event: str, data: dict[str, Any]) -> None:
        data["tool_name"] = "edited"  # the reference would pass this on

    def modifies(event: str, data: dict[str, Any]) -> AliasResult:
        return AliasResult(action="modify", data={**data, "checked": True})

    def denies(event: str, data: dict[str, Any]) -> AliasResult:
        seen.append(dict(data))
        return AliasResult(action="deny", reason="no")

    view.hooks.register("tool:pre", edits_in_place, priority=1, name="edits")
    view.hooks.register("tool:pre", modifies, priority=2, name="modifies")
    view.hooks.register("tool:pre", denies, priority=3, name="denies")
    outcome = await view.coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert seen[0]["tool_name"] == "bash" and seen[0]["checked"] is True
    assert not outcome.allowed and outcome.denied_by == "denies"
    assert outcome.data["checked"] is True and outcome.data["tool_name"] == "bash"
    await view.cleanup()
