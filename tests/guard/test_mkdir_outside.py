"""An empty folder made outside the workspace (``mkdir -p ~/.local/bin``) runs nothing:
``write-outside-workspace`` does not ask it; the rules on protected places still deny
or ask it, and what is then written into it is asked as before."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    ["mkdir -p ~/.local/bin && ls -la ~/.local/bin", "mkdir -p ~/backups/2026-11-30",
     "mkdir -p ~/.ssh/sockets"],
)  # fmt: skip
def test_an_empty_folder_outside_is_free(command: str) -> None:
    assert decided(command)[0] is None, command


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("mkdir -p ~/.claude/hooks", "deny"),
        ("mkdir -p /etc/myapp", "deny"),
        ("mkdir -p ~/.config/amplifier-hooks/off", "deny"),
        ("mkdir -p .git/hooks/pre-commit", "deny"),
        ("mkdir ~/.ssh/authorized_keys", "deny"),
        ("mkdir -p ~/wg && wg genkey > ~/wg/peer2.key", "ask"),
        ("mkdir -p ~/bin && cp tool ~/bin/", "deny"),
        ("mkdir -p ~/notes && cp a.txt ~/notes/", "ask"),
    ],
)
def test_protected_folders_and_later_writes_stay_stopped(command: str, decision: str) -> None:
    assert decided(command)[0] == decision, command
