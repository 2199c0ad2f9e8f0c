"""A rule says ``decision: allow|deny|ask`` (the word policy rules use); the old
``action:`` still works during the transition, with a warning at the bundle line that
wrote it -- never an error, never silently."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.cli import main
from amplifier_hooks.session.coordinator import Coordinator


def bundle(tmp_path: Path, rule: str) -> Path:
    path = tmp_path / "bundle.md"
    path.write_text(
        textwrap.dedent(
            f"""\
            ---
            bundle:
              name: spelling
            hooks:
              - module: ah-approval
                config:
                  defaults: false
                  rules:
                    - {rule}
            ---
            """
        )
    )
    return path


def bash(command: str) -> dict[str, Any]:
    return {"tool_name": "bash", "tool_input": {"command": command}}


async def test_decision_denies(tmp_path: Path) -> None:
    coordinator = await Coordinator.from_bundle(
        bundle(tmp_path, "{tool: bash, decision: deny, name: no-shell}"), approval_store=":memory:"
    )
    try:
        outcome = await coordinator.dispatch("tool:pre", bash("ls"))
    finally:
        await coordinator.cleanup()
    assert not outcome.allowed
    assert "(ah-approval rule no-shell)" in (outcome.reason or "")


async def test_the_old_action_key_still_works_with_a_warning_at_its_line(
    tmp_path: Path, logs: list[dict[str, Any]]
) -> None:
    path = bundle(tmp_path, "{tool: bash, action: deny, name: no-shell}")
    coordinator = await Coordinator.from_bundle(path, approval_store=":memory:")
    try:
        outcome = await coordinator.dispatch("tool:pre", bash("ls"))
    finally:
        await coordinator.cleanup()
    assert not outcome.allowed
    (warning,) = [r for r in logs if r["event"] == "hook module config"]
    assert warning["log_level"] == "warning"
    assert warning["notice"].startswith(
        f"{path}:9: hooks[0].config.rules[0].action: module 'ah-approval': "
        "'action: deny' is the old spelling of 'decision: deny'"
    )


def test_check_shows_the_old_spelling_as_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.setenv("AMPLIFIER_HOOKS_LOG", str(tmp_path / "log.jsonl"))
    path = bundle(tmp_path, "{tool: bash, action: ask}")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "is valid" in out
    assert (
        "bundle.md:9: hooks[0].config.rules[0].action: module 'ah-approval': "
        "'action: ask' is the old spelling of 'decision: ask'"
    ) in out


async def test_both_keys_in_one_rule_is_an_error_at_its_line(tmp_path: Path) -> None:
    from amplifier_hooks.bundles import BundleError

    path = bundle(tmp_path, "{tool: bash, action: deny, decision: allow}")
    with pytest.raises(BundleError) as raised:
        await Coordinator.from_bundle(path, approval_store=":memory:")
    assert "bundle.md:9: hooks[0].config.rules[0].action: module 'ah-approval' " in str(
        raised.value
    )
    assert "give 'decision' only ('action' is its old name)" in str(raised.value)
