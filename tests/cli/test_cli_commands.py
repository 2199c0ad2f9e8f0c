"""What the inspecting commands share: options before the command (each is tested in the
file named after it)."""

from __future__ import annotations

import pytest

from amplifier_hooks.cli import main

pytestmark = pytest.mark.usefixtures("wide_terminal")


def test_verbose_works_before_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-v", "events"]) == 0
    assert "tool:pre" in capsys.readouterr().out
