"""``events``: in-process through `main`, with and without a bundle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amplifier_hooks.cli import main
from amplifier_hooks.cli.session import PROJECT_ROOT
from amplifier_hooks.events import STANDARD_EVENTS

MODULES = PROJECT_ROOT / "modules"


pytestmark = pytest.mark.usefixtures("wide_terminal")


def test_events_without_a_bundle_are_the_standard_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["events", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [e["event"] for e in listing["events"]] == list(STANDARD_EVENTS)
    assert {e["kind"] for e in listing["events"]} == {"standard"}


def test_events_of_a_bundle_include_contributed_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "todo.yaml"
    bundle.write_text(
        f"hooks:\n  - {{module: ah-todo-reminder, source: {MODULES / 'ah-todo-reminder'}}}\n"
    )
    assert main(["events", str(bundle), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    kinds = {e["event"]: e["kind"] for e in listing["events"]}
    assert kinds["todo:updated"] == "contributed"
    assert kinds["todo:item_completed"] == "contributed"
    handlers = {e["event"]: e["handlers"] for e in listing["events"]}
    assert "todo-reminder:track (ah-todo-reminder)" in handlers["tool:post"]

    assert main(["events", str(bundle)]) == 0
    out = capsys.readouterr().out
    assert "todo:updated" in out and "contributed" in out
