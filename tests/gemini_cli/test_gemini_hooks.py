"""Our bundles guarding the real Gemini CLI (``amplifier-hooks gemini install`` then
``gemini -p ... --yolo --skip-trust``, user-level hooks in the sandbox's HOME).

Each run costs seconds, so one run checks several things: what a user relies on
(a deny the model reads, an allowed command running, context and module state across
calls, an ask answered from the queue) and every path on which Gemini CLI itself lets a
tool run when its hook fails (exit 1, a timeout, output that is not JSON) -- closed by
the installed wrapper, as is a program that cannot be started.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts.gemini import GEMINI_PROFILE
from amplifier_hooks.hosts.gemini.install import HOOK_NAME, GeminiPlan
from amplifier_hooks.hosts.wrapper import fail_closed_command
from amplifier_hooks.testing.gemini_api import ScriptedGemini, run_shell_command
from amplifier_hooks.testing.gemini_cli import GeminiCli
from amplifier_hooks.testing.turns import ToolUse, Turn
from tests.claude_code.guards import (
    ASK_QUEUE,
    ASK_RULES,
    DENY_RM,
    FAILURES,
    POLICY_SESSION,
    PROGRESS_MONITOR,
    cli,
    misbehaving_python,
    next_pending,
    write_bundle,
)

DONE = Turn("Finished.")


def gemini_cli(gemini: GeminiCli, *args: str) -> str:
    """``amplifier-hooks gemini ARGS`` with the sandbox's HOME; its output."""
    done = cli("gemini", *args, env={**os.environ, "HOME": str(gemini.home)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def read_file(path: Path) -> ToolUse:
    return ToolUse("read_file", {"file_path": str(path)})


async def test_install_deny_allow_context_and_state_then_uninstall(
    gemini: GeminiCli, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """The user's own hook and settings stay; a recursive delete is denied with a reason
    the model reads; an everyday command runs; two reads in a row (module state kept
    across calls by the hook server) make a nudge that reaches the model."""
    audit = tmp_path / "audit.log"
    own = {"type": "command", "command": f"cat >> {shlex.quote(str(audit))}", "timeout": 30000}
    gemini.set_hooks({"BeforeTool": [{"matcher": "run_shell_command", "hooks": [own]}]})
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM + PROGRESS_MONITOR)
    said = gemini_cli(gemini, "install", "--bundle", str(bundle))

    settings = gemini.settings()
    assert "BeforeTool" in said and "AfterTool" in said
    assert settings["security"] == {"auth": {"selectedType": "gemini-api-key"}}
    assert settings["hooks"]["BeforeTool"][0] == {"matcher": "run_shell_command", "hooks": [own]}
    ours = settings["hooks"]["BeforeTool"][1]["hooks"][0]
    assert (ours["name"], ours["timeout"]) == (HOOK_NAME, GEMINI_PROFILE.timeouts.ours)
    assert ours["command"].startswith("sh -c ")  # the fail-closed wrapper
    assert "already installed" in gemini_cli(gemini, "install", "--bundle", str(bundle))

    build = gemini.project / "build"
    build.mkdir()
    notes = gemini.project / "notes.txt"
    notes.write_text("remember the milk\n")
    turns = (
        Turn(read_file(notes)),
        Turn(read_file(notes)),
        Turn("Cleaning up.", run_shell_command("rm -rf build")),
        Turn(run_shell_command("echo made > made.txt")),
        DONE,
    )
    async with ScriptedGemini(*turns) as model:
        run = await gemini.run("Tidy up.", model, env=hook_env)

    assert run.returncode == 0, run.describe()
    _, second, denied, made, _ = model.conversation
    assert "NUDGE" not in second.new_text()
    assert "NUDGE: 2 reads in a row; time to act." in denied.new_text()
    reason = "no recursive deletes: rm -rf build (ah-approval rule rules[0])"
    assert f"Tool execution blocked: {reason}" in made.new_text()
    assert build.exists()
    assert (gemini.project / "made.txt").read_text() == "made\n"
    assert audit.read_text().count('"hook_event_name":"BeforeTool"') == 2  # theirs ran too

    assert "removed amplifier-hooks" in gemini_cli(gemini, "uninstall")
    assert gemini.settings()["hooks"] == {
        "BeforeTool": [{"matcher": "run_shell_command", "hooks": [own]}]
    }
    assert "nothing changed" in gemini_cli(gemini, "uninstall")


async def test_an_ask_waits_for_the_approver_on_the_queue(
    gemini: GeminiCli, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """Gemini CLI waits in its BeforeTool hook while the question is on the queue;
    ``amplifier-hooks approve ID --allow`` lets the command run."""
    store = str(tmp_path / "approvals.sqlite")
    bundle = write_bundle(tmp_path / "ask.yaml", ASK_QUEUE.replace("{store}", store), ASK_RULES)
    gemini_cli(gemini, "install", "--bundle", str(bundle))
    build = gemini.project / "build"
    build.mkdir()

    async with ScriptedGemini(Turn(run_shell_command("rm -rf build")), DONE) as model:
        running = asyncio.ensure_future(gemini.run("Clean up.", model, env=hook_env))
        asked = await next_pending(store, set())
        answered = await asyncio.to_thread(
            cli, "approve", str(asked.id), "--allow", "--store", store
        )
        run = await running

    assert answered.returncode == 0, answered.stderr
    assert run.returncode == 0, run.describe()
    assert asked.prompt == "Allow bash: rm -rf build?"
    assert asked.workspace == str(gemini.project)
    assert asked.session_id == run.session_id  # Gemini CLI's own
    assert not build.exists()


async def test_every_way_a_hook_can_fail_blocks_the_tool(gemini: GeminiCli, tmp_path: Path) -> None:
    """Gemini CLI runs the tool when a hook exits 1, times out or prints something that
    is not JSON; the installed wrapper turns each (and a program that cannot start)
    into exit 2 with a reason, which Gemini takes as a block the model reads."""
    fake = misbehaving_python(tmp_path)
    plan = GeminiPlan(tmp_path / "unused.yaml", ("BeforeTool",), executable=str(fake))
    host_timeout = 12000  # ms: the wrapper gives up 10 s earlier, within 2 s
    handler: dict[str, Any] = {
        **plan.handler("BeforeTool"),
        "command": fail_closed_command(GEMINI_PROFILE, plan.argv(), host_timeout),
        "timeout": host_timeout,
    }
    gemini.set_hooks({"BeforeTool": [{"hooks": [handler]}]})
    cases = list(FAILURES)
    turns = [Turn(run_shell_command(f"touch {case}.ran # {case}")) for case in cases]
    turns.append(Turn(run_shell_command("touch fine.ran")))

    async with ScriptedGemini(*turns, DONE) as model:
        run = await gemini.run("Go.", model)

    assert run.returncode == 0, run.describe()
    ran = sorted(p.name for p in gemini.project.glob("*.ran"))
    assert ran == ["fine.ran"], run.describe()
    for case, request in zip(cases, model.conversation[1:], strict=False):
        text = request.new_text()
        assert "Tool execution blocked: " in text, (case, text)
        assert (
            f"amplifier-hooks could not check this call, so it is blocked: {FAILURES[case]}" in text
        )


async def test_a_failing_prompt_hook_blocks_the_prompt(gemini: GeminiCli, tmp_path: Path) -> None:
    """Gemini CLI sends the prompt when a BeforeAgent hook exits 1; the wrapper's exit 2
    blocks it, so the model is never asked."""
    fake = misbehaving_python(tmp_path)
    plan = GeminiPlan(tmp_path / "unused.yaml", ("BeforeAgent",), executable=str(fake))
    gemini.set_hooks({"BeforeAgent": [{"hooks": [plan.handler("BeforeAgent")]}]})

    async with ScriptedGemini(Turn(run_shell_command("touch ran.txt")), DONE) as model:
        run = await gemini.run("Please crash on this prompt.", model)

    assert model.conversation == [], run.describe()
    assert not (gemini.project / "ran.txt").exists()
    assert "amplifier-hooks could not check this call, so it is blocked: it failed (exit 1)" in (
        run.stderr + json.dumps(run.events)
    )


async def test_an_ask_under_p_ends_the_turn_without_a_word(gemini: GeminiCli) -> None:
    """Why we never send Gemini CLI 0.61 an "ask" (`AnswerRules.no_ask`): it takes one on
    BeforeTool (its own confirmation prompt), but under ``-p`` the turn ends there -- the
    tool does not run, the model is not called again, and nobody is told why."""
    answer = json.dumps({"decision": "ask", "reason": "a person should decide"})
    hook = {"type": "command", "command": f"cat >/dev/null; echo {shlex.quote(answer)}"}
    gemini.set_hooks({"BeforeTool": [{"hooks": [{**hook, "timeout": 10000}]}]})

    async with ScriptedGemini(Turn(run_shell_command("touch ran.txt")), DONE) as model:
        run = await gemini.run("Please make a file.", model)

    assert not (gemini.project / "ran.txt").exists()
    assert len(model.conversation) == 1, run.describe()
    assert run.tool_results() == []
    assert "a person should decide" not in run.stderr + json.dumps(run.events)
