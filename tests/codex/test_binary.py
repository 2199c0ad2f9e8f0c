"""Our bundles guarding the real Codex CLI (``amplifier-hooks codex install`` then
``codex exec``), its model a scripted Responses API on loopback."""

from __future__ import annotations

import asyncio
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from amplifier_hooks.hosts.claude_code.install import is_ours
from amplifier_hooks.testing.codex import Codex
from amplifier_hooks.testing.responses_api import ScriptedResponses, apply_patch, exec_command
from amplifier_hooks.testing.turns import Turn
from tests.claude_code.guards import (
    ASK_QUEUE,
    DENY_RM,
    POLICY_SESSION,
    cli,
    hook_env,
    next_pending,
    write_bundle,
)

from .conftest import Drive

DONE = Turn("Finished.")
PATCHING_MODEL = "gpt-5.5"
"""A model name Codex 0.169's own catalogue offers ``apply_patch`` to (its stand-in
answers, whatever the name)."""
__all__ = ["hook_env"]  # the fixture: this module's hooks run with servers of their own

Install = Callable[..., CompletedProcess[str]]


@pytest.fixture
def build(codex: Codex) -> Path:
    path = codex.project / "build"
    path.mkdir()
    return path


def present(path: Path) -> bool:
    return path.exists()


def logging_hook(directory: Path) -> dict[str, object]:
    """A user's own hook: appends each input to ``directory/inputs.jsonl``, says nothing."""
    directory.mkdir(parents=True, exist_ok=True)
    log = directory / "inputs.jsonl"
    return {"type": "command", "command": f"cat >> {shlex.quote(str(log))}; echo >> {log}"}


def logged(directory: Path) -> list[dict[str, object]]:
    path = directory / "inputs.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line.strip()]


async def test_install_keeps_the_users_hook_and_our_deny_reaches_the_model(
    codex: Codex,
    drive: Drive,
    install: Install,
    build: Path,
    tmp_path: Path,
    hook_env: dict[str, str],
) -> None:
    user_hook = logging_hook(tmp_path / "user")
    await codex.write_hooks({"PreToolUse": [{"matcher": "Bash", "hooks": [user_hook]}]})
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM)

    done = install("install", "--bundle", str(bundle))
    assert done.returncode == 0, done.stderr
    assert f"installed amplifier-hooks in {codex.hooks_path}" in done.stdout
    assert "status: trusted: Codex will run" in done.stdout
    merged = json.loads(codex.hooks_path.read_text())["hooks"]
    assert merged["PreToolUse"][0] == {"matcher": "Bash", "hooks": [user_hook]}

    _, model = await drive(Turn(exec_command("rm -rf build")), DONE, env=hook_env)

    assert present(build)
    reason = "no recursive deletes: rm -rf build (ah-approval rule rules[0])"
    assert f"Command blocked by PreToolUse hook: {reason}" in model.conversation[1].new_text()
    [seen] = logged(tmp_path / "user")
    assert seen["tool_input"] == {"command": "rm -rf build"}

    again = install("install", "--bundle", str(bundle))
    assert again.stdout.startswith(f"amplifier-hooks is already installed in {codex.hooks_path}")


ASK_TOUCH = """
hooks:
  - module: ah-approval
    source: {modules}/ah-approval
    config:
      defaults: false
      rules:
        - {{tool: bash, command: "touch *", decision: ask, timeout: 120}}
"""
"""ah-approval asking before ``touch`` (Codex itself refuses ``rm -rf``)."""


async def test_an_ask_waits_for_the_approver_on_the_queue(
    codex: Codex, install: Install, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """Codex waits in its PreToolUse hook while the question is on the shared queue;
    ``approve ID --allow`` lets the command run, ``--deny`` stops the next."""
    store = str(tmp_path / "approvals.sqlite")
    bundle = write_bundle(tmp_path / "guard.yaml", ASK_QUEUE.replace("{store}", store), ASK_TOUCH)
    assert install("install", "--bundle", str(bundle)).returncode == 0
    turns = (Turn(exec_command("touch first")), Turn(exec_command("touch second")), DONE)
    seen: set[int] = set()

    async with ScriptedResponses(*turns) as model:
        codex.configure(model)
        running = asyncio.ensure_future(codex.run("Clean up.", model, env=hook_env))
        first = await next_pending(store, seen, within=90)
        allowed = await asyncio.to_thread(
            cli, "approve", str(first.id), "--allow", "--store", store
        )
        second = await next_pending(store, seen, within=90)
        denied = await asyncio.to_thread(cli, "approve", str(second.id), "--deny", "--store", store)
        run = await running

    assert run.returncode == 0, run.describe()
    assert allowed.returncode == 0 and denied.returncode == 0, (allowed.stderr, denied.stderr)
    assert (first.prompt, second.prompt) == (
        "Allow bash: touch first?",
        "Allow bash: touch second?",
    )
    assert first.workspace == str(codex.project)
    assert present(codex.project / "first")
    assert not present(codex.project / "second")
    reason = "denied by the user (Deny): approval rule rules[0] matched touch second"
    assert f"Command blocked by PreToolUse hook: {reason}" in model.conversation[2].new_text()


MONITOR = """
hooks:
  - module: ah-progress-monitor
    source: {modules}/ah-progress-monitor
    config:
      read_tools: [bash]
      write_tools: [apply_patch]
      thresholds: [2]
      messages: ["NUDGE: {{count}} looks in a row; time to act."]
"""


async def test_an_allowed_command_runs_and_state_and_context_reach_the_model(
    codex: Codex, drive: Drive, install: Install, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """Nothing denies ``ls``, so it runs (Codex gets no answer it would take as a failed
    hook); the monitor counts across hook calls -- its state lasts the session -- and its
    nudge after the second reaches the model as context."""
    (codex.project / "notes.txt").write_text("remember the milk\n")
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, MONITOR)
    assert install("install", "--bundle", str(bundle)).returncode == 0

    _, model = await drive(
        Turn(exec_command("cat notes.txt")), Turn(exec_command("ls")), DONE, env=hook_env
    )

    assert "remember the milk" in model.conversation[1].new_text()
    assert "NUDGE" not in model.conversation[1].new_text()
    assert "notes.txt" in model.conversation[2].new_text()
    assert "NUDGE: 2 looks in a row; time to act." in model.conversation[2].new_text()


WRITE_OUTSIDE = """
hooks:
  - module: ah-approval
    source: {modules}/ah-approval
    config:
      shell_tools: []
"""


async def test_a_patch_that_writes_outside_the_workspace_is_stopped(
    codex: Codex, drive: Drive, install: Install, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """``apply_patch`` carries its paths to the rules: adding a file outside the workspace
    is a question, which the policy (no rule: deny) refuses; a patch inside passes."""
    outside = tmp_path / "outside.txt"
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, WRITE_OUTSIDE)
    assert install("install", "--bundle", str(bundle)).returncode == 0
    escape = f"*** Begin Patch\n*** Add File: {outside}\n+pwned\n*** End Patch\n"
    inside = "*** Begin Patch\n*** Add File: inside.txt\n+fine\n*** End Patch\n"

    # Codex offers apply_patch to the models its catalogue gives a free-form patch tool.
    turns = (Turn(apply_patch(escape)), Turn(apply_patch(inside)), DONE)
    _, model = await drive(*turns, env=hook_env, model=PATCHING_MODEL)

    assert not present(outside)
    assert "blocked by PreToolUse hook" in model.conversation[1].new_text()
    assert "writes outside the workspace" in model.conversation[1].new_text()
    assert (codex.project / "inside.txt").read_text() == "fine\n"


async def test_uninstall_takes_out_our_hooks_and_their_trust_only(
    codex: Codex, install: Install, tmp_path: Path
) -> None:
    user_hook = logging_hook(tmp_path / "user")
    await codex.write_hooks({"Stop": [{"hooks": [user_hook]}]})
    config_before = codex.config_path.read_text()
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM)
    assert install("install", "--bundle", str(bundle)).returncode == 0

    listed = await codex.list_hooks()
    ours = [h for h in listed if is_ours({"command": h["command"]})]
    assert ours and all(h["trustStatus"] == "trusted" for h in listed), listed

    done = install("uninstall")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"removed amplifier-hooks from {codex.hooks_path}\n"
    assert json.loads(codex.hooks_path.read_text()) == {"hooks": {"Stop": [{"hooks": [user_hook]}]}}
    assert codex.config_path.read_text() == config_before
    [left] = await codex.list_hooks()
    assert left["trustStatus"] == "trusted"
    assert install("uninstall").stdout.startswith("no amplifier-hooks hooks in")
