"""The real filesystem MCP server behind ``amplifier-hooks mcp``, called by the SDK's client:
what a user of any MCP client relies on (a deny the model can read, a read that passes, a
secret scrubbed from a result, an ask answered by a person, arguments a hook rewrote)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import ClientRequestContext

from tests.claude_code.guards import cli, next_pending
from tests.mcp_proxy.conftest import REWRITE_HOOK, Sandbox, proxied, text_of, write_bundle

GUARD = """\
- module: ah-logging
  source: {modules}/ah-logging
- module: ah-redaction
  source: {modules}/ah-redaction
- module: ah-guard
  source: {modules}/ah-guard
  config:
    pack: default
"""

ASK_WRITES = """\
- module: ah-approval
  source: {modules}/ah-approval
  config:
    defaults: false
    rules:
      - tool: mcp__fs__write_file
        decision: ask
        timeout: 120
"""

SECRET = "AKIAIOSFODNN7EXAMPLE"


async def test_a_read_in_the_workspace_passes_with_its_secrets_scrubbed(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "guard.yaml", GUARD)
    notes = sandbox.workspace / "notes.txt"
    notes.write_text(f"deploy with key {SECRET}\n")
    async with proxied(sandbox, bundle) as session:
        result = await session.call_tool("read_text_file", {"path": str(notes)})

    assert not result.is_error, text_of(result)
    assert text_of(result) == "deploy with key [REDACTED:aws_access_key_id]\n"
    assert SECRET not in json.dumps(result.model_dump(mode="json"))  # structured content too
    # The event log is written off the client's path, yet the call's records are there
    # once the client is gone (the proxy finishes them before it exits), in order, and
    # hold the result as the client got it.
    text = (tmp_path / "events.jsonl").read_text()
    log = [json.loads(line) for line in text.splitlines()]
    records = [r for r in log if r.get("event") in ("tool:pre", "tool:post")]
    assert [r["event"] for r in records] == ["tool:pre", "tool:post"]
    assert {r["data"]["tool_name"] for r in records} == {"mcp__fs__read_text_file"}
    assert "[REDACTED:aws_access_key_id]" in json.dumps(records[1]["data"]["tool_result"])
    assert SECRET not in text
    assert log[-1]["event"] == "session:end"


async def test_a_credential_read_is_denied_with_the_reason_and_never_reaches_the_server(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "guard.yaml", GUARD)
    key = sandbox.home / ".ssh" / "id_rsa"
    key.parent.mkdir()
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    async with proxied(sandbox, bundle) as session:
        result = await session.call_tool("read_text_file", {"path": str(key)})

    assert result.is_error
    assert text_of(result) == (
        f"guard rule credential-read: {key} holds credentials; do not read, copy or send "
        "it. If a task needs access, ask the person to set it up"
    )
    log = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    calls = [r for r in log if r.get("event") == "tool:pre"]
    assert calls and calls[-1]["data"]["tool_name"] == "mcp__fs__read_text_file"
    assert not [r for r in log if r.get("event") == "tool:post"]  # nothing was forwarded


async def test_a_write_to_a_protected_place_is_denied(sandbox: Sandbox, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path / "guard.yaml", GUARD)
    async with proxied(sandbox, bundle) as session:
        result = await session.call_tool("write_file", {"path": str(bundle), "content": "x"})
    assert result.is_error and "self-protect" in text_of(result)


async def test_an_ask_is_answered_on_the_queue(sandbox: Sandbox, tmp_path: Path) -> None:
    """A client without elicitation: the question waits on the queue until
    ``amplifier-hooks approve ID --allow`` answers it; then the write happens."""
    store = str(tmp_path / "approvals.sqlite")
    bundle = write_bundle(
        tmp_path / "ask.yaml", ASK_WRITES, f"approvals: {{provider: queue, store: '{store}'}}"
    )
    target = sandbox.workspace / "plan.md"
    async with proxied(sandbox, bundle) as session:
        writing = asyncio.ensure_future(
            session.call_tool("write_file", {"path": str(target), "content": "the plan\n"})
        )
        asked = await next_pending(store, set())
        answered = await asyncio.to_thread(
            cli, "approve", str(asked.id), "--allow", "--store", store
        )
        result = await writing

    assert answered.returncode == 0, answered.stderr
    assert asked.prompt.startswith("Allow mcp__fs__write_file")
    assert asked.workspace == str(sandbox.workspace)
    assert not result.is_error, text_of(result)
    assert target.read_text() == "the plan\n"


def answering(choice: str | None, seen: list[types.ElicitRequestParams]) -> Any:
    """An elicitation callback that picks ``choice`` (None: declines)."""

    async def answer(
        context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        seen.append(params)
        if choice is None:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"answer": choice})

    return answer


async def test_an_ask_is_put_to_the_person_through_the_clients_elicitation(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "ask.yaml", ASK_WRITES)  # provider auto, no approver
    allowed, declined = sandbox.workspace / "yes.md", sandbox.workspace / "no.md"
    asked: list[types.ElicitRequestParams] = []
    async with proxied(sandbox, bundle, elicitation=answering("Allow", asked)) as session:
        yes = await session.call_tool("write_file", {"path": str(allowed), "content": "y"})
    async with proxied(sandbox, bundle, elicitation=answering(None, asked)) as session:
        no = await session.call_tool("write_file", {"path": str(declined), "content": "n"})

    assert not yes.is_error, text_of(yes)
    assert allowed.read_text() == "y"
    assert no.is_error and "declined in the MCP client" in text_of(no)
    assert not declined.exists()
    first = asked[0]
    assert isinstance(first, types.ElicitRequestFormParams)
    assert first.message.startswith("Allow mcp__fs__write_file")
    options = first.requested_schema["properties"]["answer"]["enum"]
    assert options == ["Allow", "Deny"]


async def test_an_ask_nobody_can_answer_is_denied_saying_how_to_answer(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "ask.yaml", ASK_WRITES)
    target = sandbox.workspace / "plan.md"
    async with proxied(sandbox, bundle) as session:  # no elicitation, nobody on the queue
        result = await session.call_tool("write_file", {"path": str(target), "content": "x"})

    assert result.is_error
    said = text_of(result)
    assert "takes no elicitations" in said and "amplifier-hooks approve" in said
    assert not target.exists()


async def test_a_slow_question_holds_no_other_call(sandbox: Sandbox, tmp_path: Path) -> None:
    """While a person has not answered one call, another call is answered."""
    bundle = write_bundle(tmp_path / "ask.yaml", ASK_WRITES)
    notes = sandbox.workspace / "notes.txt"
    notes.write_text("hello\n")
    asking, answer = anyio.Event(), anyio.Event()

    async def slow(context: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        asking.set()
        await answer.wait()
        return types.ElicitResult(action="accept", content={"answer": "Allow"})

    async with proxied(sandbox, bundle, elicitation=slow) as session:
        target = sandbox.workspace / "later.md"
        writing = asyncio.ensure_future(
            session.call_tool("write_file", {"path": str(target), "content": "later"})
        )
        await asking.wait()
        read = await session.call_tool("read_text_file", {"path": str(notes)})
        assert text_of(read) == "hello\n" and not writing.done()
        answer.set()
        written = await writing

    assert not written.is_error, text_of(written)
    assert target.read_text() == "later"


async def test_a_hooks_rewrite_reaches_the_server_and_its_note_the_client(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    hooks = f"- module: rewrite\n  source: {REWRITE_HOOK}\n"
    bundle = write_bundle(tmp_path / "rewrite.yaml", hooks)
    target = sandbox.workspace / "out.md"
    async with proxied(sandbox, bundle) as session:
        written = await session.call_tool("write_file", {"path": str(target), "content": "hi\n"})
        read = await session.call_tool("read_text_file", {"path": str(target)})

    assert not written.is_error, text_of(written)
    assert target.read_text() == "# checked by amplifier-hooks\nhi\n"
    assert read.content[-1] == types.TextContent(
        type="text", text="NOTE: this file is generated; do not edit"
    )


async def test_a_bundle_hides_tools_from_the_list(sandbox: Sandbox, tmp_path: Path) -> None:
    """A read-only bundle: a deny on ``mcp:tool_listed`` hides the tool (and a call of it
    by name is still judged, here denied by the same kind of rule)."""
    hooks = """\
    - module: ah-approval
      source: {modules}/ah-approval
      config:
        defaults: false
        rules:
          - event: "mcp:tool_listed"
            tool: ["mcp__fs__write_file", "mcp__fs__edit_file", "mcp__fs__move_file"]
            decision: deny
            reason: this bundle is read-only
          - tool: ["mcp__fs__write_file", "mcp__fs__edit_file", "mcp__fs__move_file"]
            decision: deny
            reason: this bundle is read-only
    """
    bundle = write_bundle(tmp_path / "readonly.yaml", hooks)
    async with proxied(sandbox, bundle) as session:
        listed = {t.name for t in (await session.list_tools()).tools}
        called = await session.call_tool(
            "write_file", {"path": str(sandbox.workspace / "x"), "content": "x"}
        )

    assert "read_text_file" in listed and "list_directory" in listed
    assert not listed & {"write_file", "edit_file", "move_file"}
    assert called.is_error and "this bundle is read-only" in text_of(called)
