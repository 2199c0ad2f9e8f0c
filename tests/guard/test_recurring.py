"""The caches across calls keep what recurs (`recurring`): the parse cache and the pieces'
readings keep a command or a piece from its second sight on, a one-off never; within
one call a piece is still read once; what is kept or not changes no verdict."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from amplifier_hooks.guard import Places, judge, load_pack, parser
from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.parser import forget_parsed, parse_command
from amplifier_hooks.guard.readings import READINGS, forget_readings
from amplifier_hooks.guard.recurring import Sightings

PLACES = Places.of("/home/dev/project", home="/home/dev")


@pytest.fixture
def forgotten() -> Iterator[None]:
    forget_parsed()
    forget_readings()
    yield
    forget_parsed()
    forget_readings()


def test_a_key_is_seen_again_only_after_its_first_sight() -> None:
    seen = Sightings(4)
    assert seen.again("git status") is False
    assert seen.again("git status") is True
    assert seen.again("ls") is False


def test_the_sightings_are_bounded_and_forgotten_when_full() -> None:
    seen = Sightings(2)
    seen.again("a")
    seen.again("b")
    seen.again("c")  # full: all forgotten, then c seen
    assert seen.again("a") is False
    assert seen.again("c") is True
    seen.forget()
    assert seen.again("c") is False


def test_a_command_parsed_once_is_not_kept_and_one_parsed_again_is(forgotten: None) -> None:
    first = parse_command("pytest -q tests/test_once.py")
    assert "pytest -q tests/test_once.py" not in parser._PARSED
    again = parse_command("pytest -q tests/test_once.py")
    assert again == first
    assert parse_command("pytest -q tests/test_once.py") is again  # kept


def test_a_large_command_is_never_kept(forgotten: None) -> None:
    text = "echo " + "x" * parser.CACHED_BYTES
    parse_command(text)
    parse_command(text)
    assert text not in parser._PARSED


def test_the_parse_cache_is_bounded(forgotten: None) -> None:
    for index in range(parser.PARSED_KEPT + 5):
        parse_command(f"ls f{index}")
        parse_command(f"ls f{index}")
    assert 0 < len(parser._PARSED) <= parser.PARSED_KEPT


def test_a_piece_read_at_one_call_is_not_kept_across_calls(forgotten: None) -> None:
    piece = Piece("pytest -q tests/test_a.py", "pytest", ("-q", "tests/test_a.py"))
    Facts(piece, PLACES)
    assert piece not in READINGS
    Facts(piece, PLACES)
    assert piece in READINGS


def test_a_piece_is_read_once_within_a_call(
    forgotten: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    real = Facts._read

    def counted(self: Facts, piece: Piece, places: Places) -> object:
        reads.append(piece.text)
        return real(self, piece, places)

    monkeypatch.setattr(Facts, "_read", counted)
    piece = Piece("rm -rf build", "rm", ("-rf", "build"))
    memo = begin()
    try:
        first = Facts(piece, PLACES)
        again = Facts(piece, PLACES)  # (ah-guard's `asks_of`, then the rules)
    finally:
        end(memo)
    assert reads == ["rm -rf build"]
    assert piece not in READINGS  # seen at one call only
    assert (again.key, again.words, again.changed) == (first.key, first.words, first.changed)


@pytest.mark.parametrize(
    "command",
    [
        "git status && pytest -q tests/",
        "rm -rf build && cat .env",
        "cp a.txt b.txt; git push --force origin main",
    ],
)
def test_the_verdict_is_the_same_at_the_first_second_and_third_call(
    forgotten: None, command: str
) -> None:
    policy = load_pack()
    data = {"tool_name": "bash", "tool_input": {"command": command}}
    verdicts = [judge(data, policy, PLACES) for _ in range(3)]
    assert verdicts[0] == verdicts[1] == verdicts[2]


def test_a_fresh_command_leaves_nothing_for_the_collector(forgotten: None) -> None:
    """What a new command's judging keeps across calls is no tracked object (the reason
    for `recurring`: bench_guard's fresh row)."""
    policy = load_pack()
    for index in range(50):  # (the caches that keep every kind of piece fill first)
        judge({"tool_name": "bash", "tool_input": {"command": f"pytest -q t/w{index}.py"}},
              policy, PLACES)  # fmt: skip
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        before = len(gc.get_objects(generation=0))
        for index in range(200):
            command = f"git status && pytest -q tests/test_{index}.py"
            judge({"tool_name": "bash", "tool_input": {"command": command}}, policy, PLACES)
        kept = len(gc.get_objects(generation=0)) - before
    finally:
        if was:
            gc.enable()
    assert kept < 50  # (was about 15 a call: 3,000)


def test_a_plain_line_s_recurring_command_is_kept_as_its_piece(forgotten: None) -> None:
    first = parse_command("git status && pytest -q tests/test_1.py").pieces
    second = parse_command("git status && pytest -q tests/test_2.py").pieces
    third = parse_command("git status && pytest -q tests/test_3.py").pieces
    assert first[0] == second[0] == third[0]
    assert third[0] is second[0]  # kept from its second sight on
    assert first[0] is not second[0]
    assert third[1].args == ("-q", "tests/test_3.py")


def test_a_kept_command_is_kept_with_its_folder(forgotten: None) -> None:
    for _ in range(2):
        parse_command("ls && git status")
        parse_command("cd sub && git status")
    here = parse_command("ls -a && git status").pieces[-1]
    below = parse_command("cd sub && ls && git status").pieces[-1]
    assert (here.cwd, below.cwd) == (".", "./sub")


def test_the_fresh_parse_keeps_no_command(forgotten: None) -> None:
    from amplifier_hooks.guard import plainline
    from amplifier_hooks.guard.parser import parse_fresh

    for _ in range(3):
        parse_fresh("git status && pytest -q")
    assert not plainline._KEPT
    parse_command("git status && pytest -q tests/a.py")
    parse_command("git status && pytest -q tests/b.py")
    assert plainline._KEPT
    forget_parsed()
    assert not plainline._KEPT
