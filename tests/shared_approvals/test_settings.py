"""The queue provider and a shared store, chosen by a bundle, the CLI or the environment."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from amplifier_hooks import Coordinator, HookResult, load_bundle
from amplifier_hooks.approvals import ApprovalStore, QueueApprovalProvider, open_store
from amplifier_hooks.approvals.store import STORE_ENV
from amplifier_hooks.approvals.store.postgres import PostgresBackend
from amplifier_hooks.bundles import Bundle
from amplifier_hooks.cli.run import describe_approvals
from amplifier_hooks.cli.session import mode_provider


def test_the_store_is_chosen_by_url_path_or_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert isinstance(open_store("postgresql://u@db/approvals"), PostgresBackend)
    assert isinstance(open_store("postgres://u@db/approvals"), PostgresBackend)
    assert isinstance(open_store(tmp_path / "a.db"), ApprovalStore)
    assert open_store(f"sqlite://{tmp_path}/b.db").name == f"{tmp_path}/b.db"
    monkeypatch.setenv(STORE_ENV, "postgresql://u@envdb/approvals")
    assert open_store(None).name == "postgresql://u@envdb/approvals"


async def test_a_bundle_with_provider_queue_shares_one_store(tmp_path: Path, pg_url: str) -> None:
    bundle_file = tmp_path / "agent.yaml"
    bundle_file.write_text(
        "bundle: {name: agent}\n"
        "session:\n  approvals:\n    provider: queue\n    store: ${APPROVAL_URL}\n",
        encoding="utf-8",
    )
    import os

    os.environ["APPROVAL_URL"] = pg_url
    try:
        bundle = load_bundle(bundle_file)
    finally:
        del os.environ["APPROVAL_URL"]
    assert bundle.session.approvals.store == pg_url  # a URL is not made a path
    coordinator = await Coordinator.from_bundle(bundle)
    provider = coordinator.approvals.provider
    assert isinstance(provider, QueueApprovalProvider)
    assert provider.backend is coordinator.approvals.backend  # one pool, one listener

    def guard(event: str, data: dict[str, object]) -> HookResult:
        return HookResult(action="ask_user", approval_prompt="Deploy?", approval_timeout=60)

    coordinator.hooks.register("tool:pre", guard)
    dispatching = asyncio.ensure_future(coordinator.dispatch("tool:pre", {"command": "deploy"}))
    approver = open_store(pg_url)
    while not (rows := await approver.list_pending()):
        await approver.wait_for_change(None, 1.0)
    assert (await approver.answer(rows[0].id, "Deny", "alice")).won
    outcome = await dispatching
    assert not outcome.allowed and outcome.approvals[0].choice == "Deny"
    await coordinator.cleanup()
    await approver.aclose()


def test_the_run_header_says_where_queued_questions_go() -> None:
    provider = mode_provider(
        Bundle(name="b", session={"approvals": {"store": "state"}}), "queue", None
    )
    assert isinstance(provider, QueueApprovalProvider) and provider.follows_gate
    assert "amplifier-hooks approve" in describe_approvals(Bundle(name="b"), "queue")
