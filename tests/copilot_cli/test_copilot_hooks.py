"""Our bundles guarding the real GitHub Copilot CLI (``amplifier-hooks copilot install``
then ``copilot -p ... --allow-all-tools --trust-folder``, offline, its model the
Responses API stand-in).

Each run costs seconds, so one run checks several things: a deny the model reads, an
allowed command running, context and module state across calls, an ask answered from
the queue, and every path on which Copilot CLI lets a tool run when its hook fails (a
timeout, output that is not JSON) -- closed by the installed wrapper, as are a crash
and a program that cannot be started, whose deny would otherwise reach the model
without a reason.
"""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path
from typing import Any

from amplifier_hooks.hosts.copilot import COPILOT_PROFILE
from amplifier_hooks.hosts.copilot.install import FAILURE_ANSWERS, HOOKS_FILE, CopilotPlan
from amplifier_hooks.hosts.wrapper import fail_closed_command
from amplifier_hooks.testing.copilot_cli import CopilotCli
from amplifier_hooks.testing.responses_api import ScriptedResponses, copilot_bash
from amplifier_hooks.testing.turns import ToolUse, Turn
from tests.claude_code.guards import (
    ASK_QUEUE,
    ASK_RULES,
    DENY_RM,
    FAILURES,
    MISBEHAVE,
    POLICY_SESSION,
    PROGRESS_MONITOR,
    cli,
    next_pending,
    write_bundle,
)

DONE = Turn("Finished.")


def copilot_cli(copilot: CopilotCli, *args: str) -> str:
    """``amplifier-hooks copilot ARGS --project <the sandbox's project>``; its output."""
    done = cli("copilot", *args, "--project", str(copilot.project))
    assert done.returncode == 0, done.stderr
    return done.stdout


def view(path: Path) -> ToolUse:
    return ToolUse("view", {"path": str(path)})


def outputs(model: ScriptedResponses) -> list[str]:
    """What each tool call returned to the model, in order."""
    return [request.output_text() for request in model.conversation[1:]]


async def test_install_deny_allow_context_and_state_then_uninstall(
    copilot: CopilotCli, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """The user's own hook file stays; a recursive delete is denied with a reason the
    model reads; an everyday command runs; two reads in a row (module state kept across
    calls by the hook server) make a nudge that reaches the model."""
    audit = tmp_path / "audit.log"
    own = {"type": "command", "bash": f"cat >> {shlex.quote(str(audit))}", "timeoutSec": 30}
    theirs = copilot.write_hooks("audit", {"preToolUse": [own]})
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM + PROGRESS_MONITOR)
    said = copilot_cli(copilot, "install", "--bundle", str(bundle))

    ours = json.loads((copilot.project / HOOKS_FILE).read_text())
    assert "preToolUse" in said and "postToolUse" in said
    assert ours["version"] == 1
    [pre] = ours["hooks"]["preToolUse"]
    assert pre["timeoutSec"] == COPILOT_PROFILE.timeouts.ours
    assert pre["bash"].startswith("sh -c ") and "--event preToolUse" in pre["bash"]
    assert "already installed" in copilot_cli(copilot, "install", "--bundle", str(bundle))

    build = copilot.project / "build"
    build.mkdir()
    notes = copilot.project / "notes.txt"
    notes.write_text("remember the milk\n")
    turns = (
        Turn(view(notes)),
        Turn(view(notes)),
        Turn("Cleaning up.", copilot_bash("rm -rf build")),
        Turn(copilot_bash("echo made > made.txt")),
        DONE,
    )
    async with ScriptedResponses(*turns) as model:
        run = await copilot.run("Tidy up.", model, env=hook_env)

    assert run.returncode == 0, run.describe()
    first, second, denied, _ = outputs(model)
    assert "remember the milk" in first and "NUDGE" not in first
    assert "NUDGE: 2 reads in a row; time to act." in second
    reason = "no recursive deletes: rm -rf build (ah-approval rule rules[0])"
    assert denied == f"Denied by preToolUse hook: {reason}"
    assert build.exists()
    assert (copilot.project / "made.txt").read_text() == "made\n"
    assert audit.read_text().count('"toolName":"bash"') == 2  # theirs ran too

    assert "removed amplifier-hooks" in copilot_cli(copilot, "uninstall")
    assert not (copilot.project / HOOKS_FILE).exists()
    assert json.loads(theirs.read_text())["hooks"] == {"preToolUse": [own]}
    assert "nothing changed" in copilot_cli(copilot, "uninstall")


async def test_an_ask_waits_for_the_approver_on_the_queue(
    copilot: CopilotCli, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """Copilot CLI waits in its preToolUse hook while the question is on the queue;
    ``amplifier-hooks approve ID --allow`` lets the command run."""
    store = str(tmp_path / "approvals.sqlite")
    bundle = write_bundle(tmp_path / "ask.yaml", ASK_QUEUE.replace("{store}", store), ASK_RULES)
    copilot_cli(copilot, "install", "--bundle", str(bundle))
    build = copilot.project / "build"
    build.mkdir()

    async with ScriptedResponses(Turn(copilot_bash("rm -rf build")), DONE) as model:
        running = asyncio.ensure_future(copilot.run("Clean up.", model, env=hook_env))
        asked = await next_pending(store, set())
        answered = await asyncio.to_thread(
            cli, "approve", str(asked.id), "--allow", "--store", store
        )
        run = await running

    assert answered.returncode == 0, answered.stderr
    assert run.returncode == 0, run.describe()
    assert asked.prompt == "Allow bash: rm -rf build?"
    assert asked.workspace == str(copilot.project)
    assert not build.exists()


async def test_every_way_a_hook_can_fail_blocks_the_tool(
    copilot: CopilotCli, tmp_path: Path
) -> None:
    """Copilot CLI runs the tool when a hook times out or prints something that is not
    JSON, and denies without our reason when it exits non-zero; the installed wrapper
    answers each (and a program that cannot start) with a JSON deny the model reads."""
    fake = tmp_path / "python"
    fake.write_text(MISBEHAVE)
    fake.chmod(0o755)
    plan = CopilotPlan(tmp_path / "unused.yaml", ("preToolUse",), executable=str(fake))
    host_timeout = 12  # s: the wrapper gives up 10 s earlier, within 2 s
    handler: dict[str, Any] = {
        **plan.handler("preToolUse"),
        "bash": fail_closed_command(
            COPILOT_PROFILE,
            plan.argv("preToolUse"),
            host_timeout,
            FAILURE_ANSWERS["preToolUse"],
        ),
        "timeoutSec": host_timeout,
    }
    copilot.write_hooks("amplifier-hooks", {"preToolUse": [handler]})
    cases = list(FAILURES)
    turns = [Turn(copilot_bash(f"touch {case}.ran # {case}")) for case in cases]
    turns.append(Turn(copilot_bash("touch fine.ran")))

    async with ScriptedResponses(*turns, DONE) as model:
        run = await copilot.run("Go.", model)

    assert run.returncode == 0, run.describe()
    ran = sorted(p.name for p in copilot.project.glob("*.ran"))
    assert ran == ["fine.ran"], run.describe()
    blocked = "Denied by preToolUse hook: amplifier-hooks could not check this call, so it is"
    for case, said in zip(cases, outputs(model), strict=False):
        assert said.startswith(blocked), (case, said)
        assert FAILURES[case] in said, (case, said)


async def test_a_failing_prompt_hook_blocks_the_prompt(copilot: CopilotCli, tmp_path: Path) -> None:
    """Copilot CLI sends the prompt whatever a userPromptSubmitted hook exits with; the
    wrapper's JSON block stops it, so the model is never asked."""
    fake = tmp_path / "python"
    fake.write_text(MISBEHAVE)
    fake.chmod(0o755)
    plan = CopilotPlan(tmp_path / "unused.yaml", ("userPromptSubmitted",), executable=str(fake))
    copilot.write_hooks(
        "amplifier-hooks", {"userPromptSubmitted": [plan.handler("userPromptSubmitted")]}
    )

    async with ScriptedResponses(Turn(copilot_bash("touch ran.txt")), DONE) as model:
        run = await copilot.run("Please crash on this prompt.", model)

    assert model.conversation == [], run.describe()
    assert not (copilot.project / "ran.txt").exists()
    assert "amplifier-hooks could not check this call, so it is blocked: it failed (exit 1)" in (
        run.stderr + json.dumps(run.events)
    )
