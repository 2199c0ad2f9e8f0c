"""docs/hosts.md says what the host records say: one overview row per host in `HOSTS`,
with its verified version, its timeout unit, and exactly its fail-open paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.hosts import HOSTS, HostAdapter

DOC = Path(__file__).resolve().parents[2] / "docs" / "hosts.md"

PHRASES = {
    "exit_1": "exits 1",
    "exit_2": "exits 2",
    "timeout": "times out",
    "bad_json": "prints no JSON",
    "missing_program": "cannot be started",
    "untrusted": "trust",
}


def overview_rows() -> dict[str, list[str]]:
    text = DOC.read_text()
    table = text[text.index("## Overview") :].split("\n\n")[1]
    rows = [[c.strip() for c in line.strip("|").split(" | ")] for line in table.splitlines()[2:]]
    return {cells[0].split(" (")[0]: cells for cells in rows}


def test_the_overview_has_one_row_per_host_in_order() -> None:
    assert list(overview_rows()) == [adapter.profile.title for adapter in HOSTS]


@pytest.mark.parametrize("adapter", HOSTS, ids=lambda a: a.profile.command)
def test_a_hosts_row_says_what_its_record_says(adapter: HostAdapter) -> None:
    profile = adapter.profile
    host, setup, _, timeouts, _, lets_through, _ = overview_rows()[profile.title]
    assert f"({profile.verified})" in host
    assert f"amplifier-hooks {profile.command} install" in setup
    assert ("milliseconds" if profile.timeouts.unit == "ms" else "seconds") in timeouts
    assert str(profile.timeouts.ours) in timeouts
    open_paths = profile.failures.open_paths()
    for failure, phrase in PHRASES.items():
        assert (phrase in lets_through) == (failure in open_paths), (failure, lets_through)
    assert f"## {profile.title}" in DOC.read_text()
