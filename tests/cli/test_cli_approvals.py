"""``approvals list`` and ``approvals forget`` on a local store, in-process through `main`."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from amplifier_hooks.approvals import ApprovalDecision, ApprovalRequest, ApprovalStore
from amplifier_hooks.cli import main

pytestmark = pytest.mark.usefixtures("wide_terminal")


def remember(store: ApprovalStore, key: str, allowed: bool, workspace: str = "") -> None:
    choice = "Allow always" if allowed else "Deny always"
    request = ApprovalRequest(
        prompt=f"Run {key}?",
        options=["Allow always", "Deny always"],
        source="guard",
        key=key,
        remember_scope=workspace,
    )
    decision = ApprovalDecision(
        allowed=allowed,
        choice=choice,
        via="person",
        scope="always",
        remembered=True,
        source="guard",
        prompt=request.prompt,
        key=key,
    )
    asyncio.run(store.remember(request, decision))  # the commands under test run their own loop


def test_approvals_list_and_forget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    remember(store, "shell:make test", True)
    remember(store, "shell:rm -rf /", False)
    store.close()

    assert main(["approvals", "list", "--store", str(path), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [(r["key"], r["allowed"]) for r in listing["remembered"]] == [
        ("shell:make test", True),
        ("shell:rm -rf /", False),
    ]
    assert main(["approvals", "list", "--store", str(path)]) == 0
    out = capsys.readouterr().out
    assert "shell:make test" in out and "allow" in out and "deny" in out

    assert main(["approvals", "forget", "shell:make test", "--store", str(path)]) == 0
    assert "forgot 1 remembered decision" in capsys.readouterr().out
    assert main(["approvals", "forget", "shell:make test", "--store", str(path)]) == 1
    assert "nothing remembered under 'shell:make test'" in capsys.readouterr().err

    assert main(["approvals", "forget", "--all", "--store", str(path)]) == 0
    assert "forgot 1 remembered decision" in capsys.readouterr().out
    assert main(["approvals", "list", "--store", str(path)]) == 0
    assert "No remembered decisions" in capsys.readouterr().out


def test_approvals_list_shows_the_workspace_an_always_answer_is_limited_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    remember(store, "shell:make test", True, workspace="/home/me/calc")
    remember(store, "shell:ls", True, workspace="*")
    store.close()
    assert main(["approvals", "list", "--store", str(path)]) == 0
    rows = {cells[-1]: cells for cells in map(str.split, capsys.readouterr().out.splitlines())}
    assert rows["test"][-3:] == ["/home/me/calc", "shell:make", "test"]
    assert rows["shell:ls"][-3:] == ["every", "workspace", "shell:ls"]
    assert main(["approvals", "list", "--store", str(path), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)["remembered"]
    assert [(r["key"], r["workspace"]) for r in listing] == [
        ("shell:make test", "/home/me/calc"),
        ("shell:ls", "*"),
    ]


def test_approvals_default_store_is_the_state_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Nothing there yet: listed as empty, and the listing does not create the file.
    assert main(["approvals", "list"]) == 0
    assert str(tmp_path / "state" / "amplifier-hooks" / "approvals.db") in capsys.readouterr().out
    assert not (tmp_path / "state").exists()


def test_approvals_forget_needs_a_key_or_all(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["approvals", "forget"]) == 2
    assert main(["approvals", "forget", "k", "--all"]) == 2


LONG_KEY = "approval_rules:shell:python -m pytest -q tests/test_calc.py --maxfail=1"


def listed(out: str) -> dict[str, list[str]]:
    """The rows of ``approvals list`` by decision: the cells, split on runs of spaces."""
    rows: dict[str, list[str]] = {}
    for line in out.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if cells[0] in ("allow", "deny"):
            rows[cells[0]] = cells
    return rows


@pytest.mark.parametrize("columns", [80, 100])
def test_approvals_list_on_a_normal_terminal_shows_the_decision_first(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    columns: int,
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    remember(store, LONG_KEY, True)
    remember(store, "approval_rules:write-outside:/home/someone/elsewhere/pytest.ini", False)
    store.close()
    assert main(["approvals", "list", "--store", str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(cell_len(line.rstrip()) <= columns for line in lines)
    header = next(line for line in lines if line.split()[:1] == ["decision"])
    assert header.split() == ["decision", "scope", "age", "asked", "by", "workspace", "key"]
    rows = listed(out)
    assert set(rows) == {"allow", "deny"}  # allow and deny tell apart at any width
    _, scope, age, source, workspace, key = rows["allow"]
    assert workspace == "every workspace"
    assert (scope, source) == ("always", "guard")
    assert re.fullmatch(r"\d+[smhd]", age)
    # Too long for what is left: cut in the middle, both ends kept.
    assert "…" in key and LONG_KEY.startswith(key.split("…")[0])
    assert LONG_KEY.endswith(key.split("…")[1])
    assert "'approvals forget' takes them as shown" in " ".join(out.split())


def test_a_key_shortened_by_the_listing_can_be_forgotten_as_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    remember(store, LONG_KEY, True)
    remember(store, LONG_KEY.replace("--maxfail=1", "-x --maxfail=1"), True)
    remember(store, "shell:ls", False)
    store.close()
    assert main(["approvals", "list", "--store", str(path)]) == 0
    shown = [cells[-1] for cells in listed(capsys.readouterr().out).values()]
    # Both long keys start and end alike: a shortened form too short to tell them apart
    # is refused rather than guessed.
    ambiguous = "approval_rules:shell:python…--maxfail=1"
    assert main(["approvals", "forget", ambiguous, "--store", str(path)]) == 1
    assert "fits 2 remembered keys" in capsys.readouterr().err
    assert main(["approvals", "forget", "shell:ls", "--store", str(path)]) == 0
    capsys.readouterr()
    assert main(["approvals", "list", "--store", str(path), "--json"]) == 0
    keys = [r["key"] for r in json.loads(capsys.readouterr().out)["remembered"]]
    assert keys == [LONG_KEY, LONG_KEY.replace("--maxfail=1", "-x --maxfail=1")]
    exact = f"{LONG_KEY[:30]}…{LONG_KEY[-20:]}"  # the start of only one of them
    assert main(["approvals", "forget", exact, "--store", str(path)]) == 0
    assert "forgot 1 remembered decision" in capsys.readouterr().out
    assert main(["approvals", "list", "--store", str(path), "--json"]) == 0
    keys = [r["key"] for r in json.loads(capsys.readouterr().out)["remembered"]]
    assert keys == [LONG_KEY.replace("--maxfail=1", "-x --maxfail=1")]
    assert shown  # the listing showed the keys it was asked for
