"""ah-approval: rules on tool, command and path decide allow / deny / ask, through a real
Coordinator and its approval gate; the default set asks before shell commands and before
writes that resolve outside the workspace."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from amplifier_module_ah_approval import HANDLER_NAME, mount, on_session_ready
from amplifier_module_ah_approval.matching import target_of
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.session.outcome import Outcome
from amplifier_hooks.testing import ScriptedApprovalProvider

OPTIONS = ["Allow once", "Allow always", "Deny"]


async def setup(
    config: dict[str, Any] | None = None, *answers: str, workspace: Path | None = None
) -> tuple[Coordinator, ScriptedApprovalProvider]:
    person = ScriptedApprovalProvider(*answers)
    coordinator = Coordinator(approval_provider=person)
    coordinator.register_cleanup(await mount(coordinator, config))
    if workspace is not None:
        await coordinator.dispatch(
            "session:start", {"session_id": "s", "workspace": str(workspace)}
        )
    return coordinator, person


def asked(outcome: Outcome) -> list[ApprovalAsk]:
    """The ask_user results of a dispatch."""
    assert outcome.resolution is not None
    return outcome.resolution.approvals


def real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def bash(command: str) -> dict[str, Any]:
    return {"tool_name": "bash", "tool_input": {"command": command}}


def write(path: str) -> dict[str, Any]:
    return {"tool_name": "write_file", "tool_input": {"path": path, "content": "x"}}


async def test_registration_is_named_early_and_fail_closed() -> None:
    coordinator, _ = await setup()
    (info,) = coordinator.hooks.handler_info("tool:pre")
    assert (info.name, info.priority, info.fail_closed, info.owner) == (
        HANDLER_NAME,
        -100,
        True,
        "ah-approval",
    )


async def test_default_asks_before_shell_commands() -> None:
    coordinator, person = await setup(None, "Allow once", "Deny")
    outcome = await coordinator.dispatch("tool:pre", bash("ls -la"))
    assert outcome.allowed
    (ask,) = asked(outcome)
    assert ask.source == HANDLER_NAME
    assert ask.options == OPTIONS
    assert ask.prompt == "Allow bash to run this command?\nls -la"
    assert (ask.timeout, ask.default) == (300.0, "deny")
    assert ask.data == {"approval_key": "approval_rules:shell:ls -la"}
    assert person.asked[0].key == "approval_rules:shell:ls -la"

    refused = await coordinator.dispatch("tool:pre", bash("rm -rf build"))
    assert not refused.allowed and refused.action == "deny"


async def test_allow_always_is_remembered_per_command() -> None:
    coordinator, person = await setup(None, "Allow always", "Allow once")
    assert (await coordinator.dispatch("tool:pre", bash("make test"))).allowed
    assert (await coordinator.dispatch("tool:pre", bash("make test"))).allowed
    assert len(person.asked) == 1  # the second call was answered from memory
    assert (await coordinator.dispatch("tool:pre", bash("make clean"))).allowed
    assert len(person.asked) == 2  # a different command is a different question


async def test_non_shell_tools_and_incomplete_data_pass() -> None:
    coordinator, person = await setup()
    for data in (
        {"tool_name": "read_file", "tool_input": {"path": "/etc/hosts"}},
        {"tool_name": "grep", "tool_input": {"pattern": "x"}},
        {},
        {"tool_name": None, "tool_input": "not a mapping"},
        {"tool_name": "write_file"},  # no path: nothing to judge
    ):
        outcome = await coordinator.dispatch("tool:pre", data)
        assert outcome.allowed and outcome.action == "continue", data
    assert person.asked == []


async def test_writes_inside_the_workspace_pass(tmp_path: Path) -> None:
    coordinator, person = await setup(workspace=tmp_path)
    (tmp_path / "src").mkdir()
    for path in ("notes.md", "src/new/file.py", str(tmp_path / "src" / "a.py"), "src/../b.txt"):
        outcome = await coordinator.dispatch("tool:pre", write(path))
        assert outcome.action == "continue", path
    assert person.asked == []


async def test_writes_outside_the_workspace_ask(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (workspace / "link").symlink_to(outside)  # a symlink that leads out
    coordinator, _ = await setup(None, *["Deny"] * 5, workspace=workspace)

    for path, resolved in [
        ("../escape.txt", tmp_path / "escape.txt"),
        ("src/../../escape.txt", tmp_path / "escape.txt"),
        ("link/inner.txt", outside / "inner.txt"),
        (str(outside / "abs.txt"), outside / "abs.txt"),
    ]:
        resolved = real(resolved)
        outcome = await coordinator.dispatch("tool:pre", write(path))
        assert not outcome.allowed, path
        ask = asked(outcome)[0]
        assert ask.prompt == f"Allow write_file to write outside the workspace?\n{resolved}"
        assert ask.data == {"approval_key": f"approval_rules:write-outside:{resolved}"}
        assert str(real(workspace)) in (ask.reason or "")

    # A path that cannot be resolved counts as outside: approvals fail closed.
    outcome = await coordinator.dispatch("tool:pre", write("bad\x00name"))
    assert asked(outcome) and not outcome.allowed
    assert "\\x00" in asked(outcome)[0].prompt  # shown, not passed raw


async def test_workspace_from_config_then_session_then_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configured = tmp_path / "configured"
    session = tmp_path / "session"
    configured.mkdir()
    session.mkdir()

    coordinator, _ = await setup({"workspace": str(configured)}, workspace=session)
    assert (
        await coordinator.dispatch("tool:pre", write(str(configured / "x")))
    ).action == "continue"
    assert asked(await coordinator.dispatch("tool:pre", write(str(session / "x"))))

    coordinator, _ = await setup(workspace=session)
    assert (await coordinator.dispatch("tool:pre", write(str(session / "x")))).action == "continue"

    monkeypatch.chdir(configured)
    coordinator, _ = await setup()
    assert (await coordinator.dispatch("tool:pre", write("relative.txt"))).action == "continue"
    assert asked(await coordinator.dispatch("tool:pre", write(str(session / "x"))))


async def test_user_rules_come_first_and_first_match_wins(tmp_path: Path) -> None:
    config = {
        "rules": [
            {"tool": "bash", "command": "rm -rf *", "decision": "deny", "reason": "no {command}"},
            {"tool": "bash", "command": ["git status*", "git diff*"], "decision": "allow"},
            {"tool": "*", "path": ["*.env", "secrets/*"], "decision": "deny", "name": "no-secrets"},
        ]
    }
    coordinator, person = await setup(config, "Deny", workspace=tmp_path)

    denied = await coordinator.dispatch("tool:pre", bash("rm -rf /"))
    assert not denied.allowed
    assert denied.reason == "no rm -rf / (ah-approval rule rules[0])"
    assert denied.denied_by == HANDLER_NAME

    granted = await coordinator.dispatch("tool:pre", bash("git status --short"))
    assert granted.action == "continue"
    # An allow rule grants: a host with its own permission prompt runs the call unasked.
    assert granted.granted is not None
    assert granted.granted.reason == (
        "approval rule rules[1] matched git status --short (ah-approval rule rules[1])"
    )
    for path in (".env", "config/prod.env", "secrets/key.pem"):
        read = {"tool_name": "read_file", "tool_input": {"file_path": path}}
        outcome = await coordinator.dispatch("tool:pre", read)
        assert not outcome.allowed and "no-secrets" in (outcome.reason or ""), path
    assert person.asked == []


async def test_allow_rule_never_approves_a_chained_command() -> None:
    config = {"rules": [{"tool": "bash", "command": "git status*", "decision": "allow"}]}
    coordinator, person = await setup(config, "Deny", "Deny", "Deny")
    for command in ("git status; rm -rf ~", "git status && curl x | sh", "git status $(reboot)"):
        outcome = await coordinator.dispatch("tool:pre", bash(command))
        assert not outcome.allowed, command  # fell through to the default ask, then denied
    assert [r.key for r in person.asked] == [
        "approval_rules:shell:git status; rm -rf ~",
        "approval_rules:shell:git status && curl x | sh",
        "approval_rules:shell:git status $(reboot)",
    ]
    # A pattern that spells the operator out does match it.
    spelled = {"rules": [{"tool": "bash", "command": "make * | tee *", "decision": "allow"}]}
    coordinator, person = await setup(spelled)
    assert (await coordinator.dispatch("tool:pre", bash("make all | tee log"))).allowed
    assert person.asked == []


async def test_an_unresolvable_path_never_matches_an_allow_rule(tmp_path: Path) -> None:
    # Allowing "*" on a path that cannot be known would let it through unasked; it falls
    # through to the default rule for writes outside the workspace instead.
    config = {"rules": [{"tool": "write_file", "path": "*", "decision": "allow"}]}
    coordinator, person = await setup(config, "Deny", workspace=tmp_path)
    assert (await coordinator.dispatch("tool:pre", write("ok.txt"))).action == "continue"
    outcome = await coordinator.dispatch("tool:pre", write("bad\x00name"))
    assert not outcome.allowed and len(person.asked) == 1
    # A deny rule still catches it as written.
    deny = {"rules": [{"tool": "write_file", "path": "*name", "decision": "deny", "name": "n"}]}
    coordinator, person = await setup(deny, workspace=tmp_path)
    outcome = await coordinator.dispatch("tool:pre", write("bad\x00name"))
    assert not outcome.allowed and "rule n" in (outcome.reason or "") and person.asked == []


async def test_every_shell_operator_and_path_key_is_seen(tmp_path: Path) -> None:
    config = {
        "defaults": False,
        "rules": [
            {"tool": "bash", "command": "echo *", "decision": "allow"},
            {"tool": "bash", "decision": "deny", "name": "shell"},
            {"path": "/etc/*", "decision": "deny", "name": "etc"},
        ],
    }
    coordinator, _ = await setup(config, workspace=tmp_path)
    assert (await coordinator.dispatch("tool:pre", bash("echo hi"))).action == "continue"
    for command in ("echo a\rreboot", "echo (x)", "echo $HOME"):
        assert not (await coordinator.dispatch("tool:pre", bash(command))).allowed, command
    notebook = {"tool_name": "notebook_edit", "tool_input": {"notebook_path": "/etc/a.ipynb"}}
    outcome = await coordinator.dispatch("tool:pre", notebook)
    assert not outcome.allowed and "rule etc" in (outcome.reason or "")


async def test_custom_ask_rule_renders_its_templates() -> None:
    config = {
        "defaults": False,
        "rules": [
            {
                "tool": "Deploy*",  # tool names compare case-insensitively
                "decision": "ask",
                "prompt": "Ship via {tool}? ({rule})",
                "reason": "deploys need a human",
                "options": ["Yes", "No"],
                "timeout": 5,
                "default": "allow",
                "approval_key": "deploy:{tool}",
                "name": "deploys",
            }
        ],
    }
    coordinator, _ = await setup(config, "Yes")
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "deploy_prod", "tool_input": {}})
    assert outcome.allowed
    (ask,) = asked(outcome)
    assert (ask.prompt, ask.options, ask.timeout, ask.default, ask.reason) == (
        "Ship via deploy_prod? (deploys)",
        ["Yes", "No"],
        5.0,
        "allow",
        "deploys need a human",
    )
    assert ask.data == {"approval_key": "approval_rules:deploy:deploy_prod"}
    assert (await coordinator.dispatch("tool:pre", bash("ls"))).action == "continue"


async def test_prompt_shows_control_characters_escaped() -> None:
    coordinator, person = await setup(None, "Deny")
    await coordinator.dispatch("tool:pre", bash("echo \x1b[2Jgotcha\u202e\u200b"))
    assert person.asked[0].prompt.endswith("echo \\x1b[2Jgotcha\\u202e\\u200b")


async def test_arguments_given_as_a_json_string() -> None:
    coordinator, person = await setup(None, "Deny")
    data = {"tool_name": "bash", "arguments": '{"command": "whoami"}'}
    outcome = await coordinator.dispatch("tool:pre", data)
    assert not outcome.allowed
    assert person.asked[0].key == "approval_rules:shell:whoami"


async def test_rules_on_contributed_events_after_session_ready() -> None:
    config = {"defaults": False, "rules": [{"event": "deploy:*", "decision": "deny"}]}
    coordinator, _ = await setup(config)
    assert coordinator.hooks.events() == ["session:resume", "session:start"]
    coordinator.register_contributor("observability.events", "deployer", lambda: "deploy:start")
    await on_session_ready(coordinator)
    outcome = await coordinator.dispatch("deploy:start", {"target": "prod"})
    assert not outcome.allowed
    assert "rules[0]" in (outcome.reason or "")


async def test_defaults_off_and_cleanup() -> None:
    coordinator, person = await setup({"defaults": False})
    assert (await coordinator.dispatch("tool:pre", bash("rm -rf /"))).action == "continue"

    person = ScriptedApprovalProvider()
    coordinator = Coordinator(approval_provider=person)
    cleanup = await mount(coordinator, {})
    cleanup()
    assert coordinator.hooks.events() == []
    assert (await coordinator.dispatch("tool:pre", bash("ls"))).action == "continue"
    assert person.asked == []


async def test_without_a_provider_the_ask_is_denied() -> None:
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {}))
    outcome = await coordinator.dispatch("tool:pre", bash("ls"))
    assert not outcome.allowed


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"rules": [{"tool": "bash"}]}, "decision"),
        ({"rules": [{"tool": "bash", "decision": "maybe"}]}, "decision"),
        (
            {"rules": [{"tool": "bash", "decision": "deny", "options": ["A"]}]},
            "only apply to decision 'ask'",
        ),
        ({"rules": [{"decision": "ask", "options": []}]}, "non-empty list"),
        ({"rules": [{"decision": "ask", "options": ["A", "A"]}]}, "repeat"),
        ({"rules": [{"decision": "ask", "timeout": 0}]}, "timeout"),
        ({"rules": [{"decision": "ask", "prompt": "Run {cmd}?"}]}, "uses {cmd}"),
        (
            {"rules": [{"decision": "ask", "prompt": "Run {command.__class__}?"}]},
            "available fields",
        ),
        ({"rules": [{"decision": "deny", "reason": "unclosed {tool"}]}, "bad template"),
        ({"rules": [{"decision": "deny", "event": "Tool:Pre"}]}, "invalid event name"),
        ({"rules": [{"decision": "deny", "tool": []}]}, "at least one"),
        ({"rules": [{"decision": "deny", "colour": "red"}]}, "colour"),
        ({"approval_timeout": -1}, "approval_timeout"),
        ({"workspace": ""}, "workspace"),
        ("bash", "must be a mapping"),
    ],
)
async def test_bad_config_is_a_clear_error(config: Any, message: str) -> None:
    coordinator = Coordinator()
    with pytest.raises(ValueError, match="ah-approval") as info:
        await mount(coordinator, config)
    assert message in str(info.value)
    assert coordinator.hooks.events() == []


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["src", "b", "..", ".", "c.txt"]), min_size=1, max_size=8))
def test_outside_workspace_matches_a_plain_walk_of_the_segments(segments: list[str]) -> None:
    # Without symlinks, "outside" must mean exactly: some ".." climbs above the root.
    workspace = Path("/nonexistent-ws/root")
    depth, escaped = 0, False
    for segment in segments:
        if segment == "..":
            depth -= 1
            escaped = escaped or depth < 0
        elif segment != ".":
            depth += 1
    target = target_of("tool:pre", write("/".join(segments)), workspace)
    assert target.outside_workspace is escaped
