"""Reading every file below the home folder (or /) reads its keys and tokens too, whatever
the pattern: asked. A search or a read below a folder of the home folder, or one that
`find` narrows by name, stays everyday work."""

from __future__ import annotations

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("grep -r . ~", "read-home-whole"),
        ("grep -rn TODO ~", "read-home-whole"),
        ("grep --recursive -i localhost $HOME", "read-home-whole"),
        ("egrep -R 'a|b' /", "read-home-whole"),
        ("rg '' ~", "read-home-whole-search"),
        ("rg --hidden -n foo $HOME", "read-home-whole-search"),
        ("ag x /", "read-home-whole-search"),
        ("find ~ -type f -exec cat {} +", "read-home-whole-found"),
        ("find $HOME -exec head -c 200 {} ;", "read-home-whole-found"),
        ("find / -type f -exec grep -l localhost {} +", "read-home-whole-found"),
    ],
)
def test_reading_every_file_of_the_home_folder_is_asked(
    verdict: Judge, command: str, rule: str
) -> None:
    judged = verdict(command)
    assert judged.decision == "ask", (command, judged)
    assert judged.rule == rule


@pytest.mark.parametrize(
    "command",
    [
        "grep -rn TODO ~/notes",
        "grep -rn TODO .",
        "rg TODO src",
        "grep -n foo ~/x.txt",
        "find ~ -maxdepth 2 -name '*.md'",
        "find ~/notes -name '*.md' -exec grep -l TODO {} +",
        "find . -name '*.py' -exec grep -l foo {} +",
    ],
)
def test_reading_below_a_folder_or_by_name_stays_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in ("allow", None), command


def test_a_search_for_secrets_in_the_home_folder_stays_denied(verdict: Judge) -> None:
    assert verdict("grep -r password ~").decision == "deny"
