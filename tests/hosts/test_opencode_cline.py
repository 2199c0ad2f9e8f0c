"""OpenCode and Cline without their binaries: what their inputs become, what our outcomes
become for them, every failure a deny with a reason, and install/uninstall leaving the
user's files as they were (the binaries' own tests are in tests/opencode and tests/cline)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.cli import main
from amplifier_hooks.hosts import CLINE, OPENCODE, HostInputError, answer_in_process
from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.cline.install import ClinePlan, install_cline, uninstall_cline
from amplifier_hooks.hosts.opencode.install import (
    OpenCodePlan,
    install_opencode,
    plugin_config,
    uninstall_opencode,
)
from amplifier_hooks.testing import make_coordinator
from tests.claude_code.guards import DENY_RM, POLICY_SESSION, write_bundle

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GUARD = str(FIXTURES / "bundles" / "explaining_guard.yaml")


def opencode_call(tool: str = "bash", **args: Any) -> dict[str, Any]:
    return {
        "hook_event_name": "tool.execute.before",
        "directory": "/w",
        "tool": tool,
        "sessionID": "ses_1",
        "callID": "call_1",
        "args": args or {"command": "ls", "description": "list"},
    }


def cline_call(name: str = "run_commands", **tool_input: Any) -> dict[str, Any]:
    return {
        "hookName": "tool_call",
        "taskId": "task_1",
        "workspaceRoots": ["/w"],
        "tool_call": {"id": "call_1", "name": name, "input": tool_input},
        "preToolUse": {"toolName": name, "parameters": {}},
    }


def test_an_opencode_call_reads_as_ours() -> None:
    call = OPENCODE.parse(opencode_call("write", filePath="/w/a.txt", content="x"))
    assert (call.event, call.session_id, call.workspace, call.guarding) == (
        "tool:pre",
        "ses_1",
        "/w",
        True,
    )
    assert call.data["tool_name"] == "write_file"
    assert call.data["tool_input"] == {"filePath": "/w/a.txt", "content": "x", "path": "/w/a.txt"}
    assert call.data["tool_call_id"] == "call_1"
    after = OPENCODE.parse(
        {**opencode_call(), "hook_event_name": "tool.execute.after", "output": "ok"}
    )
    assert (after.event, after.guarding, after.data["tool_result"]) == ("tool:post", False, "ok")


def test_a_cline_call_reads_as_ours_its_commands_as_one_command() -> None:
    call = CLINE.parse(cline_call(commands=["cd src", "rm -rf build"]))
    assert (call.host_event, call.event, call.session_id, call.workspace) == (
        "PreToolUse",
        "tool:pre",
        "task_1",
        "/w",
    )
    assert call.data["tool_name"] == "bash"
    assert call.data["tool_input"]["command"] == "cd src\nrm -rf build"
    editor = CLINE.parse(cline_call("editor", path="/etc/x", old_text=None, new_text="y"))
    assert editor.data["tool_name"] == "edit_file" and editor.data["tool_input"]["path"] == "/etc/x"
    start = CLINE.parse({"hook_event_name": "TaskStart", "taskId": "t", "taskStart": {}})
    assert (start.event, start.guarding) == ("session:start", False)


@pytest.mark.parametrize(
    ("adapter", "payload", "says"),
    [
        (OPENCODE, [], "must be a JSON object"),
        (OPENCODE, {**opencode_call(), "hook_event_name": "chat.message"}, "not an OpenCode"),
        (OPENCODE, {**opencode_call(), "args": "ls"}, "'args' must be an object"),
        (CLINE, {"taskId": "t"}, "names no event"),
        (CLINE, {**cline_call(), "workspaceRoots": "/w"}, "workspaceRoots"),
        (CLINE, {**cline_call(), "tool_call": None}, "'tool_call' must be an object"),
    ],
)
def test_a_malformed_input_says_what_is_wrong(adapter: Any, payload: object, says: str) -> None:
    with pytest.raises(HostInputError, match=says):
        adapter.parse(payload)


async def test_a_deny_is_a_throw_for_opencode_and_an_invalid_input_for_cline() -> None:
    deny = HookResult(action="deny", reason="no rm")
    for adapter, payload in ((OPENCODE, opencode_call()), (CLINE, cline_call(commands=["ls"]))):
        harness = make_coordinator()
        harness.coordinator.hooks.register("tool:pre", lambda e, d: deny, name="guard")
        call = adapter.parse(payload)
        outcome = await harness.dispatch(call.event, call.data)
        answer = adapter.answer(call, outcome)
        if adapter is OPENCODE:
            assert answer.output == {"decision": "deny", "reason": "no rm"}
        else:
            assert answer.output == {
                "overrideInput": {"blocked_by_guard": "no rm"},
                "context": "amplifier-hooks blocked this tool call: no rm",
            }
            assert "cancel" not in answer.output


async def test_a_rewrite_and_context_go_back_in_each_hosts_shape() -> None:
    def rewrite(event: str, data: dict[str, Any]) -> HookResult:
        new = {**data["tool_input"], "command": "ls -la"}
        return HookResult(action="modify", data={**data, "tool_input": new})

    def context(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="inject_context", context_injection="mind the tests")

    for adapter, payload, field in (
        (OPENCODE, opencode_call(), "args"),
        (CLINE, cline_call("editor", path="/w/a", old_text="x", new_text="y"), "overrideInput"),
    ):
        harness = make_coordinator()
        harness.coordinator.hooks.register("tool:pre", rewrite, name="rewrite", priority=1)
        harness.coordinator.hooks.register("tool:pre", context, name="context", priority=2)
        call = adapter.parse(payload)
        answer = adapter.answer(call, await harness.dispatch(call.event, call.data))
        assert answer.output is not None
        assert answer.output["context"] == "mind the tests"
        assert answer.output[field]["command"] == "ls -la"
        assert "path" not in answer.output[field] or adapter is CLINE


@pytest.mark.parametrize("adapter", [OPENCODE, CLINE], ids=lambda a: a.name)
async def test_an_ask_nobody_can_answer_is_a_deny_saying_how(adapter: Any, tmp_path: Path) -> None:
    bundle = write_bundle(
        tmp_path / "ask.yaml",
        POLICY_SESSION.replace("policy", "auto"),
        DENY_RM.replace("decision: deny", "decision: ask"),
    )
    payload = opencode_call(command="rm -rf b", description="d")
    if adapter is CLINE:
        payload = cline_call(commands=["rm -rf b"])
    answer = await answer_in_process(bundle, payload, adapter)
    assert answer.output is not None
    said = json.dumps(answer.output)
    assert "Allow bash: rm -rf b?" in said and "amplifier-hooks approve" in said, said


@pytest.mark.parametrize("adapter", [OPENCODE, CLINE], ids=lambda a: a.name)
async def test_every_failure_is_a_deny_with_a_reason(adapter: Any, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("hooks: [{module: no-such-module}]\n")
    payload = opencode_call() if adapter is OPENCODE else cline_call(commands=["ls"])
    answer = await answer_in_process(broken, payload, adapter)
    said = json.dumps(answer.output)
    assert "could not check this call, so it is blocked" in said, said
    assert "module 'no-such-module' could not be loaded" in said, said
    garbled = await answer_in_process(broken, {"nothing": 1}, adapter)
    assert "could not check this call, so it is blocked" in json.dumps(garbled.output)


def test_the_test_command_reads_both_hosts_payloads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    opencode = {
        **opencode_call(command="rm -rf build", description="d"),
        "directory": str(tmp_path),
    }
    cline = {**cline_call(commands=["rm -rf build"]), "workspaceRoots": [str(tmp_path)]}
    for payload in (opencode, cline):
        path = tmp_path / "payload.json"
        path.write_text(json.dumps(payload))
        assert main(["test", GUARD, "--json", "--payload", str(path)]) == 4
        verdict = json.loads(capsys.readouterr().out)
        assert verdict["workspace"] == str(tmp_path) and verdict["tool"] == "bash"


def tree(folder: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes()
        for p in sorted(folder.rglob("*"))
    }


def test_cline_install_sits_beside_the_users_hooks_and_uninstall_restores_them(
    tmp_path: Path,
) -> None:
    project = tmp_path / "ws"
    hooks = project / ".cline" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "PreToolUse.sh").write_text("#!/bin/sh\necho '{}'\n")
    (hooks / "notes.txt").write_bytes(b"\xff not text")
    before = tree(project)
    plan = ClinePlan(tmp_path / "b.yaml", ("PreToolUse", "TaskStart"))
    report = install_cline(project, hooks, plan)
    assert report.changed and [p.name for p in report.files] == ["PreToolUse.bash", "TaskStart.sh"]
    assert install_cline(project, hooks, plan).changed is False
    assert (hooks / "PreToolUse.sh").read_text() == "#!/bin/sh\necho '{}'\n"
    assert uninstall_cline(project, hooks).changed
    assert tree(project) == before
    assert uninstall_cline(project, hooks).changed is False


def test_an_install_into_nothing_leaves_nothing_behind(tmp_path: Path) -> None:
    project = tmp_path / "ws"
    project.mkdir()
    install_cline(project, project / ".cline" / "hooks", ClinePlan(tmp_path / "b", ("PreToolUse",)))
    plan = OpenCodePlan(tmp_path / "b.yaml", "relay-2", "TOKEN", "/nowhere")
    plugin = project / ".opencode" / "plugin" / "amplifier-hooks.js"
    install_opencode(project, plugin, plan)
    assert plugin_config(plugin.read_text())["made"] == [".opencode/plugin", ".opencode"]
    assert install_opencode(project, plugin, plan).changed is False
    uninstall_cline(project, project / ".cline" / "hooks")
    uninstall_opencode(project, plugin)
    assert list(project.iterdir()) == []


def test_a_file_of_the_users_in_our_place_is_never_overwritten(tmp_path: Path) -> None:
    plugin = tmp_path / ".opencode" / "plugin" / "amplifier-hooks.js"
    plugin.parent.mkdir(parents=True)
    plugin.write_text("export const Mine = async () => ({})\n")
    plan = OpenCodePlan(tmp_path / "b.yaml", "relay-2", "TOKEN", "/nowhere")
    with pytest.raises(SettingsError, match="is not ours"):
        install_opencode(tmp_path, plugin, plan)
    hooks = tmp_path / ".cline" / "hooks"
    hooks.mkdir(parents=True)
    for suffix in (".sh", ".bash", ".zsh"):
        (hooks / f"PreToolUse{suffix}").write_text("#!/bin/sh\n")
    with pytest.raises(SettingsError, match="already has hook files of its own"):
        install_cline(tmp_path, hooks, ClinePlan(tmp_path / "b", ("PreToolUse",)))


def test_the_plugin_is_valid_javascript_with_its_settings(tmp_path: Path) -> None:
    """The rendered plugin parses as a module (node's syntax check, where node is)."""
    plan = OpenCodePlan(tmp_path / "b.yaml", "relay-2", "TOKEN", "/t", url="http://x/opencode")
    text = plan.render()
    assert "/*CONFIG*/" not in text and plugin_config(text)["url"] == "http://x/opencode"
    node = subprocess.run(["sh", "-c", "command -v node"], capture_output=True, text=True)
    if node.returncode != 0:
        return
    path = tmp_path / "plugin.mjs"
    path.write_text(text)
    checked = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
