"""What the approval path stores and shows is redacted like the event log (issue 26,
finding 3): a command holding a GitHub token and an AWS key, asked about through the
queue, is kept in `pending` and `audit` and served by the approver's API without them --
with the bundle's scrubber (ah-redaction's capability) when it has one, and with the
well-known shapes when it has none. Old audit rows are pruned."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from amplifier_module_ah_redaction import Redactor
from amplifier_module_ah_redaction.config import parse_config

from amplifier_hooks.approvals import ApprovalGate, QueueApprovalProvider, open_store
from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.web.approver.views import request_view

GITHUB = "ghp_" + "Zq3" * 12
AWS_ID = "AKIAIOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
INTERNAL = "corp-7731-secret"  # a shape only this deployment's redaction rule knows
COMMAND = (
    f'curl -H "Authorization: token {GITHUB}" https://api.github.com && '
    f"AWS_ACCESS_KEY_ID={AWS_ID} AWS_SECRET_ACCESS_KEY={AWS_SECRET} aws s3 ls "
    f"--profile {INTERNAL}"
)
SECRETS = (GITHUB, AWS_ID, AWS_SECRET)


def ask() -> ApprovalAsk:
    return ApprovalAsk(
        source="guard",
        prompt=f"Run {COMMAND}?",
        options=["Allow", "Deny"],
        timeout=60.0,
        default="deny",  # type: ignore[arg-type]
        reason=f"shell command: {COMMAND}",
    )


async def asked_and_answered(tmp_path: Path, scrub: Any) -> str:
    """Everything the store keeps and the API shows about one question, as text."""
    backend = open_store(str(tmp_path / "approvals.db"))
    gate = ApprovalGate(QueueApprovalProvider(backend, session_id="a1"), backend)
    if scrub is not None:
        gate.scrubber = lambda: scrub
    data = {"tool_name": "bash", "tool_input": {"command": COMMAND}}
    asking = asyncio.ensure_future(gate.decide(ask(), "tool:pre", data))
    while not (rows := await backend.list_pending()):
        await backend.wait_for_change(None, 1.0)
    assert (await backend.answer(rows[0].id, "Deny", "alice")).won
    decision = await asking
    assert decision.allowed is False
    [row] = await backend.list_pending(include_done=True)
    kept = [
        row.model_dump_json(),
        json.dumps(request_view(row)),
        *(entry.model_dump_json() for entry in await backend.audit_log()),
    ]
    await gate.aclose()
    await backend.aclose()
    return "\n".join(kept)


async def test_without_a_redaction_module_well_known_secrets_are_not_kept(
    tmp_path: Path,
) -> None:
    kept = await asked_and_answered(tmp_path, None)
    assert "aws s3 ls" in kept  # the question is still readable
    for secret in SECRETS:
        assert secret not in kept
    assert "[REDACTED:github_token]" in kept and "[REDACTED:aws_access_key_id]" in kept


async def test_the_bundles_redaction_is_the_one_used(tmp_path: Path) -> None:
    config = {"extra_patterns": [{"name": "corp_profile", "pattern": r"corp-\d{4}-secret"}]}
    redactor = Redactor(parse_config(config))
    kept = await asked_and_answered(tmp_path, redactor.scrub)
    for secret in (*SECRETS, INTERNAL):
        assert secret not in kept
    assert "[REDACTED:corp_profile]" in kept


async def test_audit_rows_older_than_the_retention_are_pruned(tmp_path: Path) -> None:
    backend = open_store(str(tmp_path / "approvals.db"))
    clock = [1_000_000.0]
    backend.clock = lambda: clock[0]
    gate = ApprovalGate(None, backend)
    await gate.decide(ask(), "tool:pre", {})  # no provider: denied, audited
    clock[0] += 91 * 24 * 3600  # past the default retention of 90 days
    await gate.decide(ask(), "tool:pre", {})  # its audit prunes in the background
    await backend.pruned()
    [left] = await backend.audit_log()
    assert left.at.timestamp() == clock[0]
    await gate.aclose()
    await backend.aclose()
