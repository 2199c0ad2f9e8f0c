"""A store location that names no usable store is an error on every command, exit code 2,
with nothing created: ``--store``, ``$AMPLIFIER_HOOKS_STORE`` and a bundle's setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.approvals.store import STORE_ENV
from amplifier_hooks.bundles.reading import display_path
from amplifier_hooks.cli import main

FORMS = "expected a file path, :memory:, sqlite:///PATH or a postgresql:// URL"
MISSPELT = f"unknown store scheme 'postgressql://' (did you mean postgresql://?); {FORMS}"

COMMANDS = [
    ["run", "--no-tui"],
    ["approve", "--list"],
    ["approvals", "list"],
    ["approvals", "forget", "--all"],
]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory: whatever a command creates shows up in it."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_a_misspelt_scheme_on_the_command_line(
    command: list[str], here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--store", "postgressql://me:pw@db/approvals"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"error: --store: {MISSPELT}\n")
    assert list(here.iterdir()) == []


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_a_missing_folder_on_the_command_line(
    command: list[str], here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--store", "no/such/dir/a.db"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "error: --store: the folder no/such/dir does not exist "
        "(create it, or name a file elsewhere)\n"
    )
    assert list(here.iterdir()) == []


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_a_misspelt_environment_variable(
    command: list[str],
    here: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(STORE_ENV, "postgressql://db/approvals")
    assert main(command) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"error: ${STORE_ENV}: {MISSPELT}\n")
    assert list(here.iterdir()) == []


def test_a_misspelt_bundle_store(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = here / "b.yaml"
    bundle.write_text("session:\n  approvals:\n    store: postgressql://db/approvals\n")
    assert main(["run", "--no-tui", str(bundle)]) == 2
    out, err = capsys.readouterr()
    where = display_path(bundle)
    assert (out, err) == ("", f"error: {where}:3: session.approvals.store: {MISSPELT}\n")
    assert list(here.iterdir()) == [bundle]


def test_memory_and_a_file_in_an_existing_folder_still_work(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["approve", "--list", "--store", ":memory:"]) == 0
    assert main(["approve", "--list", "--store", "approvals.db"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines() == [
        "Nothing waiting in :memory:.",
        "Nothing waiting in approvals.db.",
    ]
    assert [p.name for p in here.iterdir()] == ["approvals.db"]
