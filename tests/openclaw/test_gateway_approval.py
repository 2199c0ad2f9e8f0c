"""A question of ours asked of a person through the real OpenClaw gateway.

The gateway runs on loopback with a token (`Gateway`); the model is a scripted Chat
Completions API; the person is a client of the gateway's WebSocket (`Operator`) that sends
the chat message (the Web UI channel, as the Control UI does) and, holding
``operator.approvals``, receives ``plugin.approval.requested`` and answers with
``plugin.approval.resolve``. Our plugin sees the run's channel (``ctx.channelId``) and
leaves the question to OpenClaw's ``requireApproval``; what the person answers decides.

Context from the bundle reaches the model through the same gateway. OpenClaw drops the
conversation hooks (``before_prompt_build``, ``agent_end``) of a plugin it did not bundle
unless its entry says ``hooks.allowConversationAccess: true``, and says so only in the
gateway's log. Install sets the flag: the context an ah-shell hook gives on
``prompt:submit`` is in the model's request. Without it, the same install loses it.

Each case runs on one gateway (its start loads the CLI, seconds a case need not pay
again): in a session, a folder and a script of its own, with its own assertions.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.testing.chat_completions import ScriptedChat
from amplifier_hooks.testing.openclaw import OpenClaw
from amplifier_hooks.testing.openclaw_gateway import APPROVER_CAPS, APPROVER_SCOPES, Gateway
from amplifier_hooks.testing.turns import ToolUse, Turn
from tests.claude_code.guards import cli, write_bundle

pytestmark = pytest.mark.timeout(900)

DONE = Turn("Finished.")
REQUESTED = "plugin.approval.requested"

ASK_CHMOD = """
session:
  approvals: {{provider: auto, store: ":memory:"}}
hooks:
  - module: ah-approval
    source: {modules}/ah-approval
    config:
      defaults: false
      rules:
        - tool: bash
          command: "chmod 700 *"
          decision: ask
          prompt: "Change the mode of {{command}}?"
          timeout: 4
        - tool: bash
          command: "chmod *"
          decision: ask
          prompt: "Change the mode of {{command}}?"
          timeout: 300
"""
"""A question on every ``chmod`` that waits 300 s for an answer; on ``chmod 700`` one
that waits 4 s (the first rule that matches decides)."""


def exec_(command: str) -> ToolUse:
    return ToolUse("exec", {"command": command})


def install(openclaw: OpenClaw, gateway: Gateway, model: ScriptedChat, bundle: Path) -> str:
    """OpenClaw's config (the model, the gateway) and our plugin with ``bundle``; what
    install printed."""
    config = {**openclaw.model_config(model), "gateway": gateway.settings()}
    openclaw.config_path.parent.mkdir(parents=True, exist_ok=True)
    openclaw.config_path.write_text(json.dumps(config, indent=2) + "\n")
    env = {**os.environ, **gateway.env}
    done = cli("openclaw", "install", "--bundle", str(bundle), env=env)
    assert done.returncode == 0, done.stderr
    assert "status: OpenClaw will run the amplifier-hooks plugin" in done.stdout
    return done.stdout


def folder(openclaw: OpenClaw, name: str) -> Path:
    """A folder of the workspace that only one case changes."""
    made = openclaw.workspace / name
    made.mkdir()
    return made


def question(event: dict[str, Any]) -> dict[str, Any]:
    request: dict[str, Any] = event["payload"]["request"]
    assert request["pluginId"] == "amplifier-hooks" and request["toolName"] == "exec"
    assert request["title"] == "amplifier-hooks asks"
    assert request["turnSourceChannel"] == "webchat", request
    return request


async def the_person_on_the_channel_answers_and_the_answer_decides(
    openclaw: OpenClaw, gateway: Gateway, model: ScriptedChat
) -> None:
    """Two questions in one turn: allowed, the tool runs; denied, it does not, the model
    reads OpenClaw's denial and the turn goes on. Then, in the same session, a question
    the person's client gets and never answers: OpenClaw waits the question's own timeout
    (4 s), then the model reads our reason -- who can answer, and where -- and the turn
    goes on."""
    opened = folder(openclaw, "opened")
    data = folder(openclaw, "data")
    mode = data.stat().st_mode & 0o777
    turns = (
        Turn(exec_("chmod 777 opened")),
        Turn(exec_("chmod 777 data")),
        DONE,
        Turn(exec_("chmod 700 data")),
        DONE,
    )
    model.rescript(*turns)
    async with gateway.operator() as person:
        run = await person.say("Open up the folders.", session="answered")
        first = await person.event(REQUESTED)
        asked = question(first)
        assert asked["description"] == "Change the mode of chmod 777 opened?", asked
        assert asked["allowedDecisions"] == ["allow-once", "deny"], asked
        allowed = {"id": first["payload"]["id"], "decision": "allow-once"}
        assert await person.request("plugin.approval.resolve", allowed) == {"ok": True}
        second = await person.event(REQUESTED)
        assert question(second)["description"] == "Change the mode of chmod 777 data?"
        denied = {"id": second["payload"]["id"], "decision": "deny"}
        assert await person.request("plugin.approval.resolve", denied) == {"ok": True}
        answered = await person.finished(run)

        assert answered["state"] == "final", (answered, gateway.tail())
        assert model.answered == 3
        ran, refused = (request.output_text() for request in model.conversation[1:3])
        assert oct(opened.stat().st_mode & 0o777) == "0o777", ran
        assert data.stat().st_mode & 0o777 == mode, refused
        assert "Denied by user. The tool call did not run." in refused, refused

        run = await person.say("Lock the data away.", session="answered")
        waiting = question(await person.event(REQUESTED))
        assert waiting["description"] == "Change the mode of chmod 700 data?", waiting
        unanswered = await person.finished(run)

    assert unanswered["state"] == "final", (unanswered, gateway.tail())
    assert model.answered == len(turns) and model.overran == 0
    said = model.conversation[4].output_text()
    assert "Change the mode of chmod 700 data? — nobody answered OpenClaw's approval" in said
    assert "within 4 s, so it is denied" in said and "operator.approvals" in said, said
    assert "amplifier-hooks approve" in said
    assert data.stat().st_mode & 0o777 == mode


NOBODY_TO_ASK = {
    # The person's client cannot show approvals and no other is connected.
    "no-approval-client": (APPROVER_SCOPES, (), "Plugin approval unavailable (no approval route)"),
    # The client that sent the message may not approve: the approval is requested with its
    # authority, and refused ("missing scope: operator.approvals").
    "sender-without-approvals-scope": (
        ("operator.read", "operator.write"),
        APPROVER_CAPS,
        "Plugin approval required",
    ),
}
"""Each client that cannot be asked (scopes, caps) and what OpenClaw tells the model."""


async def where_nobody_can_be_asked_openclaw_denies_at_once(
    openclaw: OpenClaw, gateway: Gateway, model: ScriptedChat
) -> None:
    """OpenClaw does not wait out the question's 300 s: it blocks the call at once with
    its own reason, before our plugin could hear of it (so our fallback is not reached;
    docs/hosts.md says so). Nothing hangs, the tool does not run, the turn goes on. Each
    client of `NOBODY_TO_ASK` in turn, alone on the gateway, in a session of its own."""
    closed = folder(openclaw, "closed")
    mode = closed.stat().st_mode & 0o777
    turns = (Turn(exec_("chmod 777 closed")), DONE) * len(NOBODY_TO_ASK)
    model.rescript(*turns)
    for number, (case, (scopes, caps, openclaw_says)) in enumerate(NOBODY_TO_ASK.items()):
        async with gateway.operator(scopes=scopes, caps=caps) as person:
            run = await person.say("Open up the folder.", session=case)
            ended = await person.finished(run, within=240)

        assert ended["state"] == "final", (case, ended, gateway.tail())
        assert model.answered == 2 * (number + 1), case
        said = model.conversation[2 * number + 1].output_text()
        assert openclaw_says in said, (case, said)
        assert closed.stat().st_mode & 0o777 == mode, case


REMINDER = "Reminder from the bundle: this project builds with make, never with ninja."
FLAG = '"allowConversationAccess": true'
DROPPED = 'typed hook "before_prompt_build" blocked because non-bundled plugins must set'


def reminding(directory: Path) -> str:
    """An ah-shell hook printing `REMINDER` on every prompt (plain stdout on
    ``prompt:submit`` is context): an entry to append to a bundle's hooks."""
    script = directory / "remind.py"
    script.write_text(f"print({REMINDER!r})\n")
    return (
        "  - module: ah-shell\n    source: {modules}/ah-shell\n    config:\n"
        f'      hooks:\n        - {{{{event: "prompt:submit", command: "{sys.executable} '
        f'{script}"}}}}\n'
    )


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


async def test_questions_go_to_the_person_on_the_channel_and_context_needs_the_flag(
    openclaw: OpenClaw, gateway: Gateway, tmp_path: Path
) -> None:
    """Our questions and context on one gateway (installed once, with one bundle: the
    questions of `ASK_CHMOD` and `reminding`'s prompt hook; install sets the
    conversation flag), each case in a session, a folder and a script of its own: the
    person answers the questions (`the_person_on_the_channel_answers_and_the_answer_decides`),
    then no client can (`where_nobody_can_be_asked_openclaw_denies_at_once`); then the
    context reaches the model with the flag and not without it (`reminded`)."""
    async with ScriptedChat() as model:
        bundle = write_bundle(tmp_path / "ask.yaml", "", ASK_CHMOD + reminding(tmp_path))
        said = install(openclaw, gateway, model, bundle)
        assert "before_prompt_build" in said, said
        installed = openclaw.config_path.read_text()
        assert installed.count(FLAG) == 1, installed
        await gateway.start()
        await the_person_on_the_channel_answers_and_the_answer_decides(openclaw, gateway, model)
        await where_nobody_can_be_asked_openclaw_denies_at_once(openclaw, gateway, model)
        await reminded(gateway, model, allowed=True)
        await reminded(gateway, model, allowed=False)
