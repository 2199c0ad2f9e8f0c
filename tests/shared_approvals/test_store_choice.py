"""One rule picks the approval store, for the queue and the remembered answers alike:
``--store`` (or a store given in code), else ``$AMPLIFIER_HOOKS_STORE``, else the bundle's
``session.approvals.store``, else ``:memory:``.

Each case runs the way ``amplifier-hooks run --approvals queue`` does (`mode_provider`,
then `open_coordinator`): an approver answers "Allow always" on the store the rule picks,
the same question is then answered from memory without being queued, and the stores the
rule did not pick are never created.
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import Coordinator, HookResult, load_bundle
from amplifier_hooks.approvals import QueueApprovalProvider, open_store
from amplifier_hooks.approvals.store import STORE_ENV
from amplifier_hooks.cli import main as cli_main
from amplifier_hooks.cli.session import mode_provider, open_coordinator, run_store

from .pgserver import PgServer


@pytest.fixture(params=["sqlite", "postgres"])
async def env_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The store ``$AMPLIFIER_HOOKS_STORE`` names: a SQLite file or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "from-env.db")
    else:
        server: PgServer = request.getfixturevalue("pg_server")
        yield server.create_database()


def _bundle(tmp_path: Path, store: str | None) -> Path:
    path = tmp_path / "agent.yaml"
    written = f"\n    store: '{store}'" if store is not None else ""
    path.write_text(
        f"bundle: {{name: agent}}\nsession:\n  approvals:\n    max_prompts: 5{written}\n",
        encoding="utf-8",
    )
    return path


def _guard(event: str, data: dict[str, Any]) -> HookResult:
    return HookResult(
        action="ask_user",
        approval_prompt="Deploy?",
        approval_options=["Allow always", "Deny"],
        approval_timeout=120,
    )


async def _always_then_remembered(coordinator: Coordinator, store: str) -> None:
    """An approver on ``store`` answers "Allow always"; the same question is then
    answered from memory, without anything being queued."""
    approver = open_store(store)
    try:
        asking = asyncio.ensure_future(coordinator.dispatch("tool:pre", {"command": "deploy"}))
        while not (rows := await approver.list_pending()):
            await approver.wait_for_change(None, 1.0)
        assert (await approver.answer(rows[0].id, "Allow always", "alice")).won
        first = await asking
        assert first.allowed and first.approvals[0].remembered
        again = await coordinator.dispatch("tool:pre", {"command": "deploy"})
        assert again.allowed and again.approvals[0].via == "remembered"
        assert len(await approver.list_pending(include_done=True)) == 1  # asked once
        [remembered] = await approver.list_remembered()
        assert remembered.choice == "Allow always"
    finally:
        await approver.aclose()


CASES = [
    # (what is set, which store wins)
    ({"bundle"}, "bundle"),
    ({"env", "bundle"}, "env"),  # the environment wins over the bundle
    ({"env"}, "env"),
    ({"flag", "env", "bundle"}, "flag"),
    ({"flag", "bundle"}, "flag"),
]


@pytest.mark.parametrize(("given", "winner"), CASES, ids=["+".join(sorted(c[0])) for c in CASES])
async def test_the_queue_and_remembered_answers_use_the_store_the_rule_picks(
    given: set[str],
    winner: str,
    env_store: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stores = {
        "flag": str(tmp_path / "from-flag.db"),
        "env": env_store,
        "bundle": str(tmp_path / "from-bundle.db"),
    }
    if "env" in given:
        monkeypatch.setenv(STORE_ENV, stores["env"])
    bundle = load_bundle(_bundle(tmp_path, stores["bundle"] if "bundle" in given else None))
    flag = stores["flag"] if "flag" in given else None
    assert run_store(bundle, flag) == stores[winner]

    provider = mode_provider(bundle, "queue", flag)
    coordinator, _ = await open_coordinator(bundle, provider=provider, store=flag)
    coordinator.hooks.register("tool:pre", _guard)
    try:
        assert isinstance(provider, QueueApprovalProvider)
        assert provider.backend is coordinator.approvals.backend  # one store for both
        await _always_then_remembered(coordinator, stores[winner])
    finally:
        await coordinator.cleanup()
    assert _created(stores) <= {winner}


def _created(stores: dict[str, str]) -> set[str]:
    """The SQLite stores that exist (a PostgreSQL database exists either way)."""
    return {n for n, p in stores.items() if not p.startswith("postgresql://") and Path(p).exists()}


async def test_a_store_given_in_code_wins_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "from-env.db"))
    bundle = _bundle(tmp_path, str(tmp_path / "from-bundle.db"))
    given = str(tmp_path / "given.db")
    coordinator = await Coordinator.from_bundle(bundle, approval_store=given)
    assert coordinator.approvals.backend.name == given
    await coordinator.cleanup()
    from_env = await Coordinator.from_bundle(bundle)
    assert from_env.approvals.backend.name == str(tmp_path / "from-env.db")
    await from_env.cleanup()


@pytest.mark.parametrize(
    ("flag", "env", "named"),
    [
        ([], None, "the bundle's session.approvals.store"),
        (["--store", ":memory:"], None, "(--store)"),
        ([], ":memory:", f"(${STORE_ENV})"),
    ],
)
def test_run_refuses_a_queue_nobody_can_answer(
    flag: list[str],
    env: str | None,
    named: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if env is not None:
        monkeypatch.setenv(STORE_ENV, env)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    bundle = str(_bundle(tmp_path, None))
    code = cli_main(["run", bundle, "--no-tui", "--approvals", "queue", *flag])
    assert code == 2 and out.getvalue() == ""
    assert "--approvals queue needs a store that approvers can reach" in err.getvalue()
    assert named in err.getvalue()
