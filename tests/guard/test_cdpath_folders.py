"""With CDPATH set to literal folders in the command, ``cd NAME`` lands in one of a few
known folders: what follows is judged in each, and the worst stands (`shellstate`); the
cd itself is still asked (``cdpath``), so nothing after it is granted."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided

DENIED = [
    "CDPATH=/home/dev; cd .codex && rm -f config.toml hooks.json",
    "export CDPATH=/opt:~; cd .claude && rm settings.json",
    "CDPATH=/srv:/home/dev; cd .gemini; truncate -s0 settings.json",
    "CDPATH=/home/dev; cd ./.codex && rm -f config.toml",  # (not searched: ./.codex)
]

ASKED = [
    "CDPATH=/home/dev; cd src && ls",
    "CDPATH=/home/dev; cd src && rm -rf build",
    "CDPATH=$X; cd .codex && rm -f config.toml",  # (a value the shell computes)
    "CDPATH=/home/dev; cd .codex; cd ..; rm -f config.toml",  # (two cds: not followed)
    "CDPATH=/home/dev; (cd .codex && ls); rm -f config.toml",
    "CDPATH='/home/*'; cd .codex && rm -f config.toml",
]


@pytest.mark.parametrize("command", DENIED)
def test_what_follows_is_judged_in_each_folder_cd_may_land_in(command: str) -> None:
    assert decided(command) == ("deny", "self-protect-hook-settings")


@pytest.mark.parametrize("command", ASKED)
def test_otherwise_the_cd_is_asked_as_before(command: str) -> None:
    assert decided(command)[0] == "ask"
