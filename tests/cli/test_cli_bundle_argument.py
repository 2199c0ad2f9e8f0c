"""One spelling of the bundle everywhere: every command that takes a bundle takes it as
``BUNDLE`` and as ``--bundle BUNDLE``; both at once only when they agree; a misspelt
option is named with the closest one."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.cli import main
from amplifier_hooks.cli.parser import parse

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = str(ROOT / "bundles" / "default.md")

# Each command that takes a bundle, with what else it needs to parse.
COMMANDS = {
    "run": ["run"],
    "check": ["check"],
    "events": ["events"],
    "serve": ["serve"],
    "claude-code hook": ["claude-code", "hook"],
    "claude-code install": ["claude-code", "install"],
    "codex hook": ["codex", "hook"],
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=list(COMMANDS))
def test_every_command_takes_the_bundle_both_ways(command: list[str]) -> None:
    assert parse([*command, BUNDLE]).bundle == BUNDLE
    assert parse([*command, "--bundle", BUNDLE]).bundle == BUNDLE
    assert parse([*command, f"--bundle={BUNDLE}"]).bundle == BUNDLE
    # The same file twice is the same file.
    assert parse([*command, BUNDLE, "--bundle", BUNDLE]).bundle == BUNDLE


@pytest.mark.parametrize("command", COMMANDS.values(), ids=list(COMMANDS))
def test_two_different_bundles_are_a_usage_error(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "a.md", "--bundle", "b.md"]) == 2
    err = capsys.readouterr().err
    assert "two bundles given: BUNDLE 'a.md' and --bundle 'b.md'; give one (either form)" in err
    assert err.startswith("usage: amplifier-hooks " + " ".join(command))


@pytest.mark.parametrize("command", [["check"], ["serve"], ["claude-code", "install"]])
def test_a_required_bundle_that_is_missing_says_both_forms(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(command) == 2
    assert "a bundle is needed: give BUNDLE (or --bundle BUNDLE)" in capsys.readouterr().err


@pytest.mark.parametrize("command", COMMANDS.values(), ids=list(COMMANDS))
def test_a_misspelt_bundle_option_is_named_with_the_right_one(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--bundel", BUNDLE]) == 2
    err = capsys.readouterr().err
    assert "unrecognized argument --bundel (did you mean --bundle?)" in err
    assert "required" not in err


def test_run_with_bundle_option_replays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--no-tui", "--bundle", BUNDLE]) == 0
    assert "default" in capsys.readouterr().out


def test_check_with_bundle_option_checks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--bundle", BUNDLE]) == 0
    assert "tool:pre" in capsys.readouterr().out


def test_an_unknown_option_with_nothing_close_is_listed_as_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", BUNDLE, "--frobnicate"]) == 2
    assert "unrecognized arguments: --frobnicate" in capsys.readouterr().err
