"""A build or CI file with more scripts than the guard reads one by one (or more text than
it reads) is asked: what is past them is never judged, so a harmful line after many
harmless ones must not pass quietly. A deny among the scripts that were read still denies;
a file of few scripts is judged script by script as before."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, Verdict, judge
from amplifier_hooks.guard.buildfiles import MAX_TEXT, Runner, planted_code
from amplifier_hooks.guard.ciconfigs import ci_scripts
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.spelledcode import backend_commands
from amplifier_hooks.guard.unreadscripts import (
    LISTED,
    MAX_SCRIPTS,
    UNREAD_SCRIPTS,
    read_first,
    unread_text,
)

from .conftest import HOME

WORK = HOME / "src" / "calc"
_HARMFUL = "rm -rf " + "~/"
_LEAK = "echo $DEPLOY_TOKEN | base64"


def _write(pack: Policy, places: Places, name: str, text: str) -> Verdict:
    given: dict[str, Any] = {"file_path": str(WORK / name), "content": text}
    return judge({"tool_name": "Write", "tool_input": given}, pack, places)


def _makefile(harmless: int, harmful_at: int | None) -> str:
    """A Makefile of ``harmless`` one-line recipes, the harmful one after the
    ``harmful_at``-th (None: none)."""
    lines = ["all:"]
    for index in range(harmless):
        if index == harmful_at:
            lines.append(f"\t{_HARMFUL}")
        lines.append(f"\techo step {index}")
    if harmful_at is not None and harmful_at >= harmless:
        lines.append(f"\t{_HARMFUL}")
    return "\n".join(lines) + "\n"


def _gitlab(jobs: int, leak: str) -> str:
    """A GitLab CI file of ``jobs`` jobs, each with one script line, and a job that prints
    a secret ``leak``: "first", "last" or "" (none)."""
    parts = [f"job_{index}:\n  script:\n    - echo job {index}\n" for index in range(jobs)]
    deploy = [f"deploy:\n  script:\n    - {_LEAK}\n"]
    return "".join(deploy + parts if leak == "first" else parts + deploy if leak else parts)


def _read(name: str, text: str) -> list[str]:
    """The scripts of a CI file the guard reads one by one."""
    return read_first(ci_scripts(f"/w/{name}", text) or (), name, "GitLab CI")[0]


def test_a_harmful_recipe_past_the_last_read_is_asked(pack: Policy, places: Places) -> None:
    found = _write(pack, places, "Makefile", _makefile(70, 70))
    assert (found.decision, found.rule) == ("ask", "planted-scripts-unread")
    assert "more scripts than the guard reads" in (found.reason or "")


def test_the_same_recipe_among_few_is_denied(pack: Policy, places: Places) -> None:
    found = _write(pack, places, "Makefile", _makefile(10, 10))
    assert (found.decision, found.rule) == ("deny", "planted-code")


def test_a_denied_recipe_that_was_read_still_denies(pack: Policy, places: Places) -> None:
    found = _write(pack, places, "Makefile", _makefile(70, 3))
    assert (found.decision, found.rule) == ("deny", "planted-code")


def test_a_long_harmless_makefile_is_asked_not_passed(pack: Policy, places: Places) -> None:
    found = _write(pack, places, "Makefile", _makefile(MAX_SCRIPTS + 1, None))
    assert (found.decision, found.rule) == ("ask", "planted-scripts-unread")


def test_a_makefile_of_as_many_recipes_as_are_read_is_judged_as_before(
    pack: Policy, places: Places
) -> None:
    found = _write(pack, places, "Makefile", _makefile(MAX_SCRIPTS, None))
    assert found.decision is None and found.rule is None  # never granted, not asked


def test_a_long_gitlab_ci_file_is_asked(pack: Policy, places: Places) -> None:
    text = next(t for t in (_gitlab(70, "first"), _gitlab(70, "last"))
                if _LEAK not in _read(".gitlab-ci.yml", t))  # fmt: skip
    found = _write(pack, places, ".gitlab-ci.yml", text)
    assert (found.decision, found.rule) == ("ask", "planted-scripts-unread")
    short = _write(pack, places, ".gitlab-ci.yml", _gitlab(5, "first"))
    assert (short.decision, short.rule) == ("deny", "ci-step-secret-print")
    everyday = _write(pack, places, ".gitlab-ci.yml", _gitlab(5, ""))
    assert everyday.decision is None


def test_a_ci_step_read_and_denied_outranks_the_ask(pack: Policy, places: Places) -> None:
    text = next(t for t in (_gitlab(70, "first"), _gitlab(70, "last"))
                if _LEAK in _read(".gitlab-ci.yml", t))  # fmt: skip
    found = _write(pack, places, ".gitlab-ci.yml", text)
    assert (found.decision, found.rule) == ("deny", "ci-step-secret-print")


def test_text_longer_than_is_read_is_asked(pack: Policy, places: Places) -> None:
    text = "all:\n" + "\techo " + "x" * MAX_TEXT + "\n"
    found = _write(pack, places, "Makefile", text)
    assert (found.decision, found.rule) == ("ask", "planted-scripts-unread")
    assert (_write(pack, places, ".gitlab-ci.yml", "a:\n  script:\n    - echo " + text).rule
            == "planted-scripts-unread")  # fmt: skip


def test_the_rule_disabled_leaves_no_opinion(pack: Policy, places: Places) -> None:
    lenient = pack.extend([], disable=["planted-scripts-unread"])
    found = _write(lenient, places, "Makefile", _makefile(70, 70))
    assert found.decision is None


def test_read_first_keeps_the_first_and_marks_the_rest() -> None:
    scripts = [f"echo {index}" for index in range(MAX_SCRIPTS)]
    assert read_first(scripts, "/w/Makefile", "make") == (scripts, ())
    kept, unread = read_first([*scripts, "echo past"], "/w/Makefile", "make")
    assert kept == scripts
    assert [(p.program, p.wrappers, p.text) for p in unread] == [
        ("true", (UNREAD_SCRIPTS,), "/w/Makefile")
    ]
    assert "more than 64 scripts make runs" in (unread[0].doubt or "")
    piece = unread_text("/w/Makefile", "make", MAX_TEXT)
    assert isinstance(piece, Piece) and piece.wrappers == (UNREAD_SCRIPTS,)


def test_planted_code_lists_one_more_than_is_read() -> None:
    listed = planted_code(Runner("make", "make"), _makefile(MAX_SCRIPTS + 30, None))
    assert listed is not None and len(listed) == LISTED


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('build-backend = "_b"\nbackend-path = ["/tmp"]', ["PYTHONPATH=/tmp python3 -m _b"]),
        ('[build-system]\nbuild-backend = "backend:api"\nbackend-path = [".", "_build"]\n',
         ["PYTHONPATH=. python3 -m backend", "PYTHONPATH=_build python3 -m backend"]),
        ('[build-system]\nbuild-backend = "hatchling.build"\n', []),
    ],
)  # fmt: skip
def test_an_in_tree_build_backend_is_imported_from_its_path(text: str, found: list[str]) -> None:
    assert backend_commands(text) == found
    shell = planted_code(Runner("pyproject", "pip"), text)
    assert [c for _, c in shell or []] == found
