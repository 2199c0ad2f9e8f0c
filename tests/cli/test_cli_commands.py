"""What the inspecting commands share: options before the command, and the module
they are all still importable from (each is tested in the file named after it)."""

from __future__ import annotations

import pytest

from amplifier_hooks.cli import approvals, check, commands, events, main

pytestmark = pytest.mark.usefixtures("wide_terminal")


def test_verbose_works_before_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-v", "events"]) == 0
    assert "tool:pre" in capsys.readouterr().out


def test_every_inspecting_command_is_still_importable_from_commands() -> None:
    for module in (check, events, approvals):
        for name in module.__all__:
            assert getattr(commands, name) is getattr(module, name)
    assert sorted(commands.__all__) == sorted([*check.__all__, *events.__all__, *approvals.__all__])
