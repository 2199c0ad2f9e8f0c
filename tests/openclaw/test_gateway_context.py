"""Context from a bundle reaching the model through the real OpenClaw gateway.

OpenClaw drops the conversation hooks (``before_prompt_build``, ``agent_end``) of a plugin
it did not bundle unless its entry says ``hooks.allowConversationAccess: true``, and says
so only in the gateway's log. Install sets the flag: the context an ah-shell hook gives on
``prompt:submit`` is in the model's request. Without it, the same install loses it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from amplifier_hooks.testing.chat_completions import ScriptedChat
from amplifier_hooks.testing.openclaw import OpenClaw
from amplifier_hooks.testing.openclaw_gateway import Gateway
from amplifier_hooks.testing.turns import Turn
from tests.claude_code.guards import cli, write_bundle

pytestmark = pytest.mark.timeout(900)

REMINDER = "Reminder from the bundle: this project builds with make, never with ninja."
FLAG = '"allowConversationAccess": true'
DROPPED = 'typed hook "before_prompt_build" blocked because non-bundled plugins must set'


def context_bundle(directory: Path) -> Path:
    """A bundle whose ah-shell hook prints `REMINDER` on every prompt (plain stdout on
    ``prompt:submit`` is context)."""
    script = directory / "remind.py"
    script.write_text(f"print({REMINDER!r})\n")
    hooks = (
        "hooks:\n  - module: ah-shell\n    source: {modules}/ah-shell\n    config:\n"
        f'      hooks:\n        - {{{{event: "prompt:submit", command: "{sys.executable} '
        f'{script}"}}}}\n'
    )
    return write_bundle(directory / "remind.yaml", "", hooks)


@pytest.mark.parametrize("allowed", [True, False], ids=["installed", "flag-false"])
async def test_context_from_the_bundle_reaches_the_models_request(
    openclaw: OpenClaw, gateway: Gateway, tmp_path: Path, allowed: bool
) -> None:
    """Installed, the gateway runs our prompt hook and the reminder is in what the model
    reads with the person's message; with the flag false, OpenClaw logs that it dropped
    the hook and the model gets the message alone."""
    async with ScriptedChat(Turn("Noted.")) as model:
        config = {**openclaw.model_config(model), "gateway": gateway.settings()}
        openclaw.config_path.parent.mkdir(parents=True, exist_ok=True)
        openclaw.config_path.write_text(json.dumps(config, indent=2) + "\n")
        env = {**os.environ, **gateway.env}
        bundle = context_bundle(tmp_path)
        done = cli("openclaw", "install", "--bundle", str(bundle), env=env)
        assert done.returncode == 0, done.stderr
        assert "before_prompt_build" in done.stdout, done.stdout
        installed = openclaw.config_path.read_text()
        assert installed.count(FLAG) == 1, installed
        if not allowed:
            denied = installed.replace(FLAG, '"allowConversationAccess": false')
            openclaw.config_path.write_text(denied)
        await gateway.start()
        async with gateway.operator() as person:
            run = await person.say("How do I build this?")
            ended = await person.finished(run)

    log = gateway.log.read_text(errors="replace")
    assert ended["state"] == "final", (ended, gateway.tail())
    assert model.answered >= 1, gateway.tail()
    asked = model.conversation[0].new_text()
    assert "How do I build this?" in asked, asked
    if allowed:
        assert REMINDER in asked, (asked, gateway.tail())
        assert DROPPED not in log
    else:
        assert REMINDER not in asked, asked
        assert DROPPED in log, log[-3000:]
