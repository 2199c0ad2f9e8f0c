"""Context from a bundle reaching the model through the real OpenClaw gateway.

OpenClaw drops the conversation hooks (``before_prompt_build``, ``agent_end``) of a plugin
it did not bundle unless its entry says ``hooks.allowConversationAccess: true``, and says
so only in the gateway's log. Install sets the flag: the context an ah-shell hook gives on
``prompt:submit`` is in the model's request. Without it, the same install loses it.
Both cases run on one gateway, each in a session of its own.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from amplifier_hooks.testing.chat_completions import ScriptedChat
from amplifier_hooks.testing.openclaw import OpenClaw
from amplifier_hooks.testing.openclaw_gateway import APPROVER_SCOPES, Gateway
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


ADMIN = (*APPROVER_SCOPES, "operator.admin")
"""A client that may change the gateway's config (``config.patch``)."""


async def reminded(gateway: Gateway, model: ScriptedChat, allowed: bool) -> None:
    """One turn in a session of its own with the flag ``allowed``, set through the
    gateway's ``config.patch`` (it answers once the plugin runs with the new entry:
    OpenClaw registers it again). Allowed, the gateway runs our prompt hook and the
    reminder is in what the model reads with the person's message; with the flag false,
    OpenClaw logs that it dropped the hook and the model gets the message alone."""
    model.rescript(Turn("Noted."))
    start = gateway.log.stat().st_size
    async with gateway.operator(scopes=ADMIN) as person:
        current = await person.request("config.get", {})
        access = {"hooks": {"allowConversationAccess": allowed}}
        patch = {"plugins": {"entries": {"amplifier-hooks": access}}}
        change = {"raw": json.dumps(patch), "baseHash": current["hash"]}
        await person.request("config.patch", change, within=300)
        run = await person.say("How do I build this?", session=f"allowed-{allowed}")
        ended = await person.finished(run)

    with gateway.log.open("rb") as log:
        log.seek(start)
        since = log.read().decode(errors="replace")  # this case's part of the log
    assert ended["state"] == "final", (allowed, ended, gateway.tail())
    assert model.answered >= 1, (allowed, gateway.tail())
    asked = model.conversation[0].new_text()
    assert "How do I build this?" in asked, (allowed, asked)
    if allowed:
        assert REMINDER in asked, (asked, gateway.tail())
        assert DROPPED not in since
    else:
        assert REMINDER not in asked, asked
        assert DROPPED in since, since[-3000:]


async def test_context_from_the_bundle_reaches_the_models_request_only_with_the_flag(
    openclaw: OpenClaw, gateway: Gateway, tmp_path: Path
) -> None:
    """Install sets the flag (`reminded` with it, then false) on one gateway: its start
    loads the CLI, seconds the second case need not pay again."""
    async with ScriptedChat() as model:
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
        await gateway.start()
        await reminded(gateway, model, allowed=True)
        await reminded(gateway, model, allowed=False)
