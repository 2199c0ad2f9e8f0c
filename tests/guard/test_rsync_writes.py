"""rsync writes what its table says (`table.network`, `pathwords.written_words`): its
destination, a log file, its sources with ``--remove-source-files``; its sources are only
read, and ``-n`` writes nothing but the options' own files."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "rsync -an --itemize-changes ../lib/src/lib/ vendor/lib/",  # a sibling's, compared
        "rsync -a ../lib/src/lib/ vendor/lib/",  # read from a sibling into the workspace
        "rsync -an vendor/lib/ ../lib/src/lib/",  # what would change there: nothing does
    ],
)
def test_a_sync_into_the_workspace_or_a_dry_run_is_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None, verdict(command).pieces


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("rsync -a vendor/lib/ ../lib/src/lib/", "ask"),
        ("rsync -a --remove-source-files ../lib/src/ vendor/", "ask"),  # deletes the sources
        ("rsync -an --log-file=../sync.log src/ out/", "ask"),  # the log is written anyway
        ("rsync -a --delete build/ ~/", "deny"),
    ],
)
def test_what_a_sync_changes_outside_is_judged(verdict: Judge, command: str, decision: str) -> None:
    assert verdict(command).decision == decision, verdict(command).pieces
