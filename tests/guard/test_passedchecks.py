"""A recurring piece goes through only the checks its words pass (`passedchecks`): sound
only if those are the checks the full loop would reach, in order. Checked over every case
of the shipped corpora judged again and again (its pieces kept, then their checks), each
verdict the same as with the shortcut off; and the kept entries by identity."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from amplifier_hooks.cli.corpus import load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import event_data
from amplifier_hooks.guard import judge, load_pack, policy
from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.passedchecks import forget_passed, passed
from amplifier_hooks.guard.readings import forget_readings
from amplifier_hooks.guard.rulematch import Check
from tests.guard.conftest import DEV_PLACES, session_places

_ROUNDS = 5
"""A piece's reading is kept from its second call, its passed checks from the fourth."""


@pytest.fixture
def forgotten() -> Iterator[None]:
    forget_readings()
    forget_passed()
    yield
    forget_readings()
    forget_passed()


def _all_checks(checks: tuple[Check, ...], facts: Facts) -> tuple[Check, ...]:
    return checks


@pytest.mark.timeout(900)  # every shipped case, judged six times
def test_every_case_judged_again_and_again_is_judged_the_same(
    monkeypatch: pytest.MonkeyPatch, forgotten: None
) -> None:
    pack = load_pack()
    cases = [case for path in shipped_corpora() for case in load_corpus(path)]

    def verdicts() -> list[tuple[str | None, str | None, str | None]]:
        found = []
        for case in cases:
            places = session_places(case.call.cwd, case.call.home)
            made = judge(event_data(case.call), pack, places)
            found.append((made.decision, made.rule, made.reason))
        return found

    monkeypatch.setattr(policy, "passed", _all_checks)
    expected = verdicts()
    monkeypatch.setattr(policy, "passed", passed)
    for round_ in range(_ROUNDS):
        got = verdicts()
        changed = [(c.id, e, g) for c, e, g in zip(cases, expected, got, strict=True) if e != g]
        assert not changed, f"round {round_}: {changed[:5]}"


def _facts(command: str) -> Facts:
    token = begin()
    try:
        pieces = policy.pieces_for({"tool_name": "bash", "tool_input": {"command": command}},
                                   DEV_PLACES)[1]  # fmt: skip
        return Facts(pieces[0], DEV_PLACES)
    finally:
        end(token)


def test_a_piece_read_afresh_meets_every_check(forgotten: None) -> None:
    facts = _facts("git status")
    assert facts.reading is None  # (its first sight)
    checks, _, _ = load_pack()._plan(facts)
    assert passed(checks, facts) is checks


def test_a_recurring_piece_meets_only_the_checks_its_words_pass(forgotten: None) -> None:
    for _ in range(2):
        _facts("git status")
    facts = _facts("git status")
    assert facts.reading is not None
    checks, _, _ = load_pack()._plan(facts)
    assert passed(checks, facts) is checks  # (the pair's first sight: not kept yet)
    held = passed(checks, facts)
    assert [c.rule.id for c in held] == ["git-everyday"]
    assert all(c.args is None and c.flags is None for c in held)
    assert passed(checks, facts) is held  # kept


def test_an_entry_is_the_same_checks_and_reading_or_none(forgotten: None) -> None:
    for _ in range(3):
        facts = _facts("git -c core.pager=evil log")
    checks, _, _ = load_pack()._plan(facts)
    passed(checks, facts)
    held = passed(checks, facts)
    assert "git-c-pager" in [c.rule.id for c in held]
    other = tuple(list(checks))  # an equal tuple, another object: not the kept entry's
    assert passed(other, facts) is other
    forget_readings()  # a new reading object for the same piece: read again
    for _ in range(3):
        again = _facts("git -c core.pager=evil log")
    assert again.reading is not facts.reading
    assert passed(checks, again) is checks


def test_a_piece_is_judged_the_same_from_its_first_call_on(forgotten: None) -> None:
    pack = load_pack()
    commands = ("git status", "git -c core.pager=evil log", "git push --force origin main",
                "SKIP=gitleaks git commit -m x", "cat .env", "ls -la src",
                "git config remote.origin.push +main:main", "rm -rf build")  # fmt: skip
    for command in commands:
        call = {"tool_name": "bash", "tool_input": {"command": command}}
        first = judge(call, pack, DEV_PLACES)
        for _ in range(_ROUNDS):
            assert judge(call, pack, DEV_PLACES) == first, command


def test_the_piece_of_a_kept_reading_is_equal(forgotten: None) -> None:
    piece = Piece(text="git status", program="git", args=("status",))
    for _ in range(3):
        facts = Facts(piece, DEV_PLACES)
    assert facts.reading is not None
    assert Facts(piece._replace(args=("status", "-s")), DEV_PLACES).reading is None
