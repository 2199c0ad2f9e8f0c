"""Each way a Codex hook fails lets the call run (Codex 0.169: exit 1, a timeout, output
that is not JSON, a missing program, an untrusted hook) -- and the command
``amplifier-hooks codex install`` writes closes each one: the call is blocked and the
model reads why."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from amplifier_hooks.hosts.codex import CODEX_PROFILE
from amplifier_hooks.hosts.wrapper import fail_closed_command
from amplifier_hooks.testing.codex import Codex
from amplifier_hooks.testing.responses_api import exec_command
from amplifier_hooks.testing.turns import Turn

from .conftest import Drive

HOST_TIMEOUT = 13
"""Seconds Codex gives the hook: the wrapper's own deadline is 10 s sooner."""

FAILURES = {
    "exit 1": (["sh", "-c", "echo Traceback: boom >&2; exit 1"], "it failed (exit 1)"),
    "timeout": (["sleep", "60"], "it gave no answer within 3s"),
    "bad JSON": (["sh", "-c", "echo ready to serve"], "its answer is not JSON"),
    "missing program": (
        ["/nonexistent/bin/python3", "-m", "amplifier_hooks.cli", "codex", "hook"],
        "its program could not be started (/nonexistent/bin/python3)",
    ),
}


def present(path: Path) -> bool:
    return path.exists()


def hooks(command: str) -> dict[str, object]:
    return {
        "PreToolUse": [
            {"hooks": [{"type": "command", "command": command, "timeout": HOST_TIMEOUT}]}
        ]
    }


@pytest.mark.parametrize("failure", list(FAILURES))
async def test_codex_itself_runs_the_command_when_the_hook_fails(
    codex: Codex, drive: Drive, failure: str
) -> None:
    argv, _ = FAILURES[failure]
    await codex.write_hooks(hooks(shlex.join(argv)))

    await drive(Turn(exec_command("touch ran")), Turn("Finished."))

    assert present(codex.project / "ran")


@pytest.mark.parametrize("failure", list(FAILURES))
async def test_the_installed_wrapper_blocks_the_command_and_says_why(
    codex: Codex, drive: Drive, failure: str
) -> None:
    argv, why = FAILURES[failure]
    await codex.write_hooks(hooks(fail_closed_command(CODEX_PROFILE, argv, HOST_TIMEOUT)))

    _, model = await drive(Turn(exec_command("touch ran")), Turn("Finished."))

    assert not present(codex.project / "ran")
    said = model.conversation[1].new_text()
    # Codex hands the model the hook's whole stderr: the failing process's own words,
    # then the wrapper's.
    assert said.startswith("Command blocked by PreToolUse hook: ")
    assert f"amplifier-hooks could not check this call, so it is blocked: {why}" in said


DENY = shlex.join([sys.executable, "-c", "import sys; print('no'); sys.exit(2)"])


async def test_an_untrusted_hook_is_skipped_silently(codex: Codex, drive: Drive) -> None:
    """Codex does not run a hook it does not trust -- why install records the trust."""
    await codex.write_hooks(hooks(DENY), trust=False)
    [listed] = await codex.list_hooks()
    assert listed["trustStatus"] == "untrusted"

    run, _ = await drive(Turn(exec_command("touch ran")), Turn("Finished."))

    assert present(codex.project / "ran")
    assert "hook: PreToolUse" not in run.stderr
