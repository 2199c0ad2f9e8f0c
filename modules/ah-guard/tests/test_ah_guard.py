"""ah-guard through a real Coordinator built from a bundle: denies with the rule's reason,
asks through the approval gate, grants everyday work, and guards its own bundle file."""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from amplifier_module_ah_guard import EXPLAIN_CAPABILITY, HANDLER_NAME

from amplifier_hooks.bundles import BundleError, build_coordinator
from amplifier_hooks.guard import Verdict
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.testing import ScriptedApprovalProvider

MODULE_DIR = Path(__file__).resolve().parents[1]
HOME = os.path.realpath(Path.home())


def write_bundle(folder: Path, config: str = "") -> Path:
    bundle = folder / "guarded.yaml"
    bundle.write_text(
        "bundle: {name: guarded}\n"
        "hooks:\n"
        "  - module: ah-guard\n"
        f"    source: {MODULE_DIR}\n" + (f"    config:\n{config}" if config else ""),
        encoding="utf-8",
    )
    return bundle


@pytest.fixture
def workspace() -> Path:
    # Not under /tmp: the pack treats /tmp as scratch space; a project lives elsewhere.
    return Path("/home/ada-guard-test/src/calc")


async def started(bundle: Path, workspace: Path, person: ScriptedApprovalProvider) -> Coordinator:
    coordinator = await build_coordinator(bundle, approval_provider=person)
    await coordinator.dispatch("session:start", {"session_id": "s", "workspace": str(workspace)})
    return coordinator


@pytest.fixture
async def guarded(tmp_path: Path, workspace: Path) -> AsyncIterator[tuple[Coordinator, Any]]:
    person = ScriptedApprovalProvider("Deny", "Allow once")
    coordinator = await started(write_bundle(tmp_path), workspace, person)
    try:
        yield coordinator, person
    finally:
        await coordinator.cleanup()


def bash(command: str) -> dict[str, Any]:
    return {"tool_name": "bash", "tool_input": {"command": command}}


async def test_a_deny_reaches_the_agent_with_its_rule_and_reason(
    guarded: tuple[Coordinator, Any],
) -> None:
    coordinator, person = guarded
    outcome = await coordinator.dispatch("tool:pre", bash("sudo rm -rf ~"))
    assert not outcome.allowed and not person.prompts
    assert outcome.resolution is not None
    assert outcome.resolution.reason == (
        f"guard rule rm-root-or-home: deleting {HOME} would destroy the system "
        "or the home folder; delete specific files inside the workspace instead"
    )


async def test_everyday_work_is_granted_with_no_question(
    guarded: tuple[Coordinator, Any],
) -> None:
    coordinator, person = guarded
    for command in ("ls -la", "git status", "mkdir -p /tmp/build"):
        outcome = await coordinator.dispatch("tool:pre", bash(command))
        assert outcome.allowed and outcome.granted is not None, command
        assert outcome.granted.source == HANDLER_NAME
        assert (outcome.granted.reason or "").startswith("guard rule ")
    # The project's own code runs what the guard does not read: free, but no grant.
    for command in ("npm test", "make", "GIT_EXTERNAL_DIFF='rm -f x' git diff"):
        outcome = await coordinator.dispatch("tool:pre", bash(command))
        assert outcome.allowed and outcome.granted is None, command
    read = await coordinator.dispatch(
        "tool:pre", {"tool_name": "read_file", "tool_input": {"file_path": "src/calc.py"}}
    )
    assert read.granted is not None and "read-workspace" in (read.granted.reason or "")
    assert not person.prompts


async def test_a_question_goes_to_the_approval_gate(guarded: tuple[Coordinator, Any]) -> None:
    coordinator, person = guarded
    denied = await coordinator.dispatch("tool:pre", bash("git push -f origin my-feature"))
    allowed = await coordinator.dispatch("tool:pre", bash("git branch -D old-feature"))
    assert not denied.allowed and allowed.allowed and allowed.granted is None
    assert len(person.prompts) == 2
    assert "guard rule git-force-push:" in person.prompts[0]
    assert person.prompts[1].startswith(
        "Allow git branch -D old-feature? (guard rule git-branch-force-delete:"
    )


async def test_what_no_rule_knows_is_left_to_others(guarded: tuple[Coordinator, Any]) -> None:
    coordinator, person = guarded
    outcome = await coordinator.dispatch("tool:pre", bash("frobnicate --now"))
    assert outcome.allowed and outcome.granted is None and not person.prompts


async def test_explain_returns_every_piece(guarded: tuple[Coordinator, Any]) -> None:
    coordinator, _ = guarded
    explain = coordinator.get_capability(EXPLAIN_CAPABILITY)
    verdict = explain(bash("git status; cat ~/.ssh/id_rsa"))
    assert isinstance(verdict, Verdict)
    assert [(p.program, p.decision, p.rule) for p in verdict.pieces] == [
        ("git", "allow", "git-everyday"),
        ("cat", "deny", "credential-read"),
    ]


async def test_the_bundle_in_use_is_protected(tmp_path: Path, workspace: Path) -> None:
    bundle = write_bundle(tmp_path)
    coordinator = await started(bundle, workspace, ScriptedApprovalProvider())
    try:
        write = {"tool_name": "write_file", "tool_input": {"file_path": str(bundle)}}
        outcome = await coordinator.dispatch("tool:pre", write)
        shell = await coordinator.dispatch("tool:pre", bash(f"rm {bundle}"))
    finally:
        await coordinator.cleanup()
    for result in (outcome, shell):
        assert not result.allowed
        assert result.resolution is not None
        assert "guard rule self-protect-guard-files" in (result.resolution.reason or "")


async def test_config_adds_overrides_disables_and_protects(tmp_path: Path, workspace: Path) -> None:
    config = (
        "      rules:\n"
        "        - {id: no-docker, decision: deny, reason: containers are off, program: docker}\n"
        "        - {id: git-reset-hard, decision: deny, reason: not here, program: git,"
        " subcommand: reset}\n"
        "      disable: [git-clean]\n"
        f"      protect: [{workspace}/VERSION]\n"
    )
    coordinator = await started(
        write_bundle(tmp_path, config), workspace, ScriptedApprovalProvider()
    )
    try:
        explain = coordinator.get_capability(EXPLAIN_CAPABILITY)
        assert explain(bash("docker run x")).rule == "no-docker"
        assert explain(bash("git reset --hard")).reason == "not here"
        assert explain(bash("git clean -fdx")).decision is None
        assert explain(bash("echo 2 > VERSION")).rule == "self-protect-guard-files"
    finally:
        await coordinator.cleanup()


async def test_a_bundle_maps_its_own_mcp_servers_tools(tmp_path: Path, workspace: Path) -> None:
    """``mcp_tools``: rows as in the pack's MCP table, for a server the pack does not know;
    a bundle's row comes first, and the pack's rows still hold for the tools it names."""
    config = (
        "      mcp_tools:\n"
        "        - tool: mcp__*__put_object\n"
        "          args: {key: write, body: data}\n"
    )
    put = {
        "tool_name": "mcp__store__put_object",
        "tool_input": {"key": ".claude/settings.json", "body": "{}"},
    }
    fs_write = {
        "tool_name": "mcp__fs__write_file",
        "tool_input": {"path": ".claude/settings.json", "content": "{}"},
    }
    plain = await started(write_bundle(tmp_path, ""), workspace, ScriptedApprovalProvider())
    try:
        unmapped = plain.get_capability(EXPLAIN_CAPABILITY)(put)
    finally:
        await plain.cleanup()
    mapped = await started(write_bundle(tmp_path, config), workspace, ScriptedApprovalProvider())
    try:
        explain = mapped.get_capability(EXPLAIN_CAPABILITY)
        written, pack_row = explain(put), explain(fs_write)
    finally:
        await mapped.cleanup()
    assert unmapped.decision != "deny"  # its key was only a name, not a place written
    assert written.decision == "deny" and written.rule is not None
    assert written.rule.startswith("self-protect")
    assert pack_row.decision == "deny"


async def test_a_bad_mcp_tools_row_names_the_file_line_and_key(tmp_path: Path) -> None:
    config = (
        "      mcp_tools:\n"
        "        - tool: mcp__*__put_object\n"
        "          args: {key: writes, body: data}\n"
    )
    bundle = write_bundle(tmp_path, config)
    with pytest.raises(BundleError) as failed:
        await build_coordinator(bundle)
    said = str(failed.value)
    assert f"{bundle}:8: hooks[0].config.mcp_tools[0].args.key: " in said, said
    assert "got 'writes'" in said, said


async def test_pack_none_keeps_only_the_bundles_rules(tmp_path: Path, workspace: Path) -> None:
    config = "      pack: none\n"
    coordinator = await started(
        write_bundle(tmp_path, config), workspace, ScriptedApprovalProvider()
    )
    try:
        explain = coordinator.get_capability(EXPLAIN_CAPABILITY)
        assert explain(bash("rm -rf ~")).decision is None
        # What cannot be read is still never let through.
        assert explain(bash("$CMD")).decision == "ask"
    finally:
        await coordinator.cleanup()


@pytest.mark.parametrize(
    "config",
    [
        "      pack: strictest\n",
        "      rules: [{id: x, action: deny, reason: r}]\n",
        "      frobnicate: 1\n",
    ],
)
async def test_a_bad_config_fails_the_mount(tmp_path: Path, config: str) -> None:
    with pytest.raises(BundleError):
        await build_coordinator(write_bundle(tmp_path, config))


async def test_a_typo_in_a_rules_env_or_args_names_the_key(tmp_path: Path) -> None:
    config = "      rules: [{id: x, decision: deny, reason: r, env: {eahc: [HOME=*]}}]\n"
    with pytest.raises(BundleError, match=r"eahc.*did you mean 'each'"):
        await build_coordinator(write_bundle(tmp_path, config))


async def test_a_bundle_rule_matches_settings_and_words_together(
    tmp_path: Path, workspace: Path
) -> None:
    config = (
        "      pack: none\n"
        "      rules:\n"
        "        - {id: no-moved-codex, decision: deny, reason: r, program: codex,\n"
        "           env: {any: [CODEX_HOME=*]}}\n"
        "        - {id: no-drop-tool, decision: ask, reason: r, program: pip,\n"
        "           args: {each: [uninstall|remove, mytool*]}}\n"
    )
    coordinator = await started(write_bundle(tmp_path, config), workspace,
                                ScriptedApprovalProvider())  # fmt: skip
    try:
        explain = coordinator.get_capability(EXPLAIN_CAPABILITY)
        assert explain(bash("CODEX_HOME=/tmp/x codex exec hi")).rule == "no-moved-codex"
        assert explain(bash("pip uninstall -y mytool")).rule == "no-drop-tool"
        assert explain(bash("pip install mytool")).rule != "no-drop-tool"
    finally:
        await coordinator.cleanup()


async def test_the_token_and_the_approval_store_are_protected(
    tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    bundle = write_bundle(tmp_path)
    bundle.write_text(
        bundle.read_text("utf-8") + "session:\n  approvals: {store: approvals.db}\n", "utf-8"
    )
    coordinator = await started(bundle, workspace, ScriptedApprovalProvider())
    try:
        explain = coordinator.get_capability(EXPLAIN_CAPABILITY)
        token = tmp_path / "state" / "amplifier-hooks" / "token"
        assert explain(bash(f"echo x > {token}")).rule == "self-protect-guard-files"
        assert explain(bash(f"rm {tmp_path / 'approvals.db'}")).rule == "self-protect-guard-files"
        # The token answers questions in the browser approver: reading it is a credential read.
        assert explain(bash(f"cat {token}")).rule == "credential-read"
    finally:
        await coordinator.cleanup()


def git(folder: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(folder.parent),
           "GIT_CONFIG_GLOBAL": str(folder.parent / "no-gitconfig")}  # fmt: skip
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
                    "-c", "init.defaultBranch=main", *args],
                   cwd=folder, env=env, check=True, capture_output=True)  # fmt: skip


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository with an ignored build/, a changed and a clean tracked file, and an
    untracked one."""
    top = tmp_path / "project"
    (top / "src").mkdir(parents=True)
    (top / ".gitignore").write_text("build/\n", encoding="utf-8")
    (top / "src" / "a.py").write_text("a = 1\n", encoding="utf-8")
    (top / "src" / "b.py").write_text("b = 1\n", encoding="utf-8")
    git(top, "init", "-q")
    git(top, "add", ".")
    git(top, "commit", "-qm", "start")
    (top / "build").mkdir()
    (top / "build" / "out.o").write_text("x", encoding="utf-8")
    (top / "src" / "a.py").write_text("a = 2\n", encoding="utf-8")
    (top / "notes.txt").write_text("mine\n", encoding="utf-8")
    return top


async def test_deletes_are_granted_or_asked_by_what_git_says_they_lose(
    tmp_path: Path, repository: Path
) -> None:
    person = ScriptedApprovalProvider("Deny", "Deny", "Deny")
    # A generous deadline: this test is about the facts, not about git's speed.
    bundle = write_bundle(tmp_path, "      git_deadline: 5\n")
    coordinator = await started(bundle, repository, person)
    try:
        for command in ("rm -rf build", "rm src/b.py"):
            outcome = await coordinator.dispatch("tool:pre", bash(command))
            assert outcome.granted is not None, command
        outcome = await coordinator.dispatch("tool:pre", bash("git restore src/b.py"))
        assert outcome.allowed and not person.prompts  # loses nothing: not asked
        for command, rule in (("rm src/a.py", "rm-loses-work"), ("rm notes.txt", "rm-loses-work"),
                              ("git restore src/a.py", "git-loses-work")):  # fmt: skip
            outcome = await coordinator.dispatch("tool:pre", bash(command))
            assert not outcome.allowed, command
            assert f"guard rule {rule}:" in person.prompts[-1]
        assert len(person.prompts) == 3
    finally:
        await coordinator.cleanup()


async def test_a_file_tools_write_over_a_file_is_judged_by_what_git_says_it_loses(
    tmp_path: Path, repository: Path
) -> None:
    """Claude Code's Write and Gemini CLI's write_file replace the whole file, as ``tee``
    does: granted over what git can give back or a new file, asked over work it cannot."""
    person = ScriptedApprovalProvider(*["Deny"] * 4)
    bundle = write_bundle(tmp_path, "      git_deadline: 5\n")
    coordinator = await started(bundle, repository, person)

    def writes(name: str) -> list[dict[str, Any]]:
        path = str(repository / name)
        given = {"file_path": path, "content": "x\n"}
        return [{"tool_name": "Write", "tool_input": given},
                {"tool_name": "write_file", "tool_input": given}]  # fmt: skip

    try:
        for name in ("src/b.py", "build/out.o", "src/new.py", "docs/new/page.md"):
            for data in writes(name):
                outcome = await coordinator.dispatch("tool:pre", data)
                assert outcome.granted is not None, data
        changed = {"file_path": str(repository / "src/a.py"), "old_string": "a = 2",
                   "new_string": "a = 3"}  # fmt: skip
        edit = {"tool_name": "Edit", "tool_input": changed}
        assert (await coordinator.dispatch("tool:pre", edit)).granted is not None
        assert not person.prompts
        for name in ("src/a.py", "notes.txt"):
            for data in writes(name):
                outcome = await coordinator.dispatch("tool:pre", data)
                assert not outcome.allowed, data
                assert "guard rule overwrite-loses-work:" in person.prompts[-1]
                assert name in person.prompts[-1]
        assert len(person.prompts) == 4
    finally:
        await coordinator.cleanup()


async def test_git_that_does_not_answer_in_time_gives_no_grant(
    tmp_path: Path, repository: Path
) -> None:
    person = ScriptedApprovalProvider()
    bundle = write_bundle(tmp_path, "      git_deadline: 0.000000001\n")
    coordinator = await started(bundle, repository, person)
    try:
        outcome = await coordinator.dispatch("tool:pre", bash("rm -rf build"))
        assert outcome.allowed and outcome.granted is None and not person.prompts
    finally:
        await coordinator.cleanup()


async def test_a_bundle_in_the_workspace_is_asked_about_its_store_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Developing a bundle under its own guard: changing it is asked, not denied; the
    approval store it names stays denied, and so do the hosts' hook settings."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    workspace = tmp_path / "project"
    workspace.mkdir()
    bundle = write_bundle(workspace)
    bundle.write_text(
        bundle.read_text("utf-8") + "session:\n  approvals: {store: approvals.db}\n", "utf-8"
    )
    coordinator = await started(bundle, workspace, ScriptedApprovalProvider())
    try:
        explain = coordinator.get_capability(EXPLAIN_CAPABILITY)
        edit = explain({"tool_name": "edit_file", "tool_input": {"file_path": str(bundle)}})
        assert (edit.decision, edit.rule) == ("ask", "self-protect-guard-source")
        store = explain(bash(f"rm {workspace / 'approvals.db'}"))
        assert (store.decision, store.rule) == ("deny", "self-protect-guard-files")
        hooks = explain(bash("rm -rf .claude"))
        assert (hooks.decision, hooks.rule) == ("deny", "self-protect-hook-folders")
    finally:
        await coordinator.cleanup()
