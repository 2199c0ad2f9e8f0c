"""A piece's reading (`facts.Facts` before any path is resolved) is kept across calls
(`readings`): sound only if it is a pure function of the piece. Checked over every case
of the shipped corpora and an even spread of the blind ones: no file system access while
reading a piece that is kept, the same reading in other places, the same reading kept as
made afresh; and the programs whose reading asks the file system (`places.CHANGERS`) read
afresh at every call."""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.cli.corpus import Case, load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import event_data
from amplifier_hooks.guard import Places, judge, load_pack
from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.places import asks_files
from amplifier_hooks.guard.readings import READINGS, READINGS_KEPT, forget_readings

ROOT = Path(__file__).resolve().parents[2]
_FILE_SYSTEM = ("stat", "lstat", "listdir", "scandir", "readlink", "access")
_ELSEWHERE = Places.of("/elsewhere/work/space", home="/elsewhere/home/someone")
_READ = Facts._read  # (the test below wraps it)


_BLIND_BUDGET = 2500
"""The blind corpora's cases judged here, spread evenly over them: they grow each session,
and the test's time with them (every shipped case is judged too)."""


def _cases() -> list[Case]:
    shipped = [case for path in shipped_corpora() for case in load_corpus(path)]
    blind = [case for path in sorted((ROOT / "benchmarks" / "corpora").glob("*.yaml"))
             for case in load_corpus(path)]  # fmt: skip
    stride = max(1, -(-len(blind) // _BLIND_BUDGET))
    return shipped + blind[::stride]


@pytest.fixture
def forgotten() -> Iterator[None]:
    forget_readings()
    yield
    forget_readings()


def _spied(monkeypatch: pytest.MonkeyPatch, asked: list[str], reading: list[bool]) -> None:
    """Record each file system access made while ``reading[0]``."""

    def spy(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if reading[0]:
                asked.append(f"{name}{args[:1]}")
            return real(*args, **kwargs)

        return call

    for name in _FILE_SYSTEM:
        monkeypatch.setattr(os, name, spy(name, getattr(os, name)))
    monkeypatch.setattr(builtins, "open", spy("open", builtins.open))
    monkeypatch.setattr(io, "open", spy("open", io.open))


def _fresh(piece: Piece, places: Places) -> tuple[object, ...]:
    made = Facts.__new__(Facts)
    made.piece, made.places = piece, places
    return _READ(made, piece, places)


@pytest.mark.timeout(900)  # about 6,600 cases, judged once
def test_every_kept_reading_of_the_corpora_is_the_piece_s_alone(
    monkeypatch: pytest.MonkeyPatch, forgotten: None
) -> None:
    asked: list[str] = []
    reading = [False]
    problems: list[str] = []
    kept = 0

    def checked(self: Facts, piece: Piece, places: Places) -> Any:
        nonlocal kept
        reading[0] = True
        try:
            made = _READ(self, piece, places)
        finally:
            reading[0] = False
        if not asks_files(piece):
            kept += 1
            if asked:
                problems.append(f"{piece.text!r} asked the file system: {asked}")
            elsewhere = _fresh(piece, _ELSEWHERE)
            if elsewhere != made:
                problems.append(f"{piece.text!r} reads otherwise in other places")
        asked.clear()
        return made

    _spied(monkeypatch, asked, reading)
    monkeypatch.setattr(Facts, "_read", checked)
    policy = load_pack()
    for case in _cases():
        forget_readings()
        judge(event_data(case.call), policy, Places.of(case.call.cwd, home=case.call.home))
    assert not problems, "\n".join(problems[:20])
    assert kept > 5000  # most pieces are kept


@pytest.mark.parametrize(
    ("words", "asks"),
    [
        (("git", "status"), False),
        (("git", "rm", "-r", "build"), False),
        (("git", "mv", "a", "b"), True),
        (("git", "-C", "sub", "apply", "x.patch"), True),
        (("cp", "a", "b"), True),
        (("rsync", "-a", "a/", "b"), True),
        (("patch", "-p1", "-i", "x.patch"), True),
        (("rm", "-rf", "build"), False),
        (("sed", "-i", "s/a/b/", "f"), False),
        (("pytest", "-q"), False),
    ],
)
def test_the_pieces_whose_changes_are_read_from_the_file_system(
    words: tuple[str, ...], asks: bool
) -> None:
    assert asks_files(Piece(" ".join(words), words[0], words[1:])) is asks


def test_a_kept_reading_is_the_one_made_afresh(forgotten: None) -> None:
    places = Places.of("/home/dev/project", home="/home/dev")
    pieces = (
        Piece("git status", "git", ("status",)),
        Piece("pytest -q tests/", "pytest", ("-q", "tests/")),
        Piece("rm -rf build", "rm", ("-rf", "build")),
        Piece("curl -o x https://example.com/x", "curl", ("-o", "x", "https://example.com/x")),
    )
    for piece in pieces:
        Facts(piece, places)  # (kept from its second call on: `recurring`)
        first = Facts(piece, places)
        assert piece in READINGS
        again = Facts(Piece(*piece), places)  # equal, not the same object
        assert again.key == first.key and again.has == first.has
        assert (again.words, again.written, again.changed) == (
            first.words,
            first.written,
            first.changed,
        )
        assert READINGS[piece] == _fresh(piece, places)
        assert again._located is None and again._branches is None  # a call's own


def test_a_kept_reading_keeps_no_call_s_paths(tmp_path: Path, forgotten: None) -> None:
    (tmp_path / "tests").mkdir()
    places = Places.of(str(tmp_path), home=str(tmp_path / "home"))
    piece = Piece("pytest -q tests", "pytest", ("-q", "tests"))
    before = Facts(piece, places).paths("all")
    (tmp_path / "tests").rmdir()
    (tmp_path / "tests").symlink_to(tmp_path / "home")
    after = Facts(piece, places).paths("all")  # the reading is kept; the path is resolved anew
    assert [p.path for p in before] == [str(tmp_path / "tests")]
    assert [p.path for p in after] == [str(tmp_path / "home")]


def test_a_program_whose_reading_asks_the_file_system_is_read_at_every_call(
    tmp_path: Path, forgotten: None
) -> None:
    places = Places.of(str(tmp_path), home=str(tmp_path / "home"))
    (tmp_path / "a.txt").write_text("a")
    piece = Piece("cp a.txt out", "cp", ("a.txt", "out"))
    as_file = Facts(piece, places).changed
    assert piece not in READINGS
    (tmp_path / "out").mkdir()  # now `out` is a folder: `cp` writes into it
    as_folder = Facts(piece, places).changed
    assert as_file != as_folder


def test_the_kept_readings_are_bounded(forgotten: None) -> None:
    places = Places.of("/home/dev/project", home="/home/dev")
    for index in range(READINGS_KEPT + 5):
        Facts(Piece(f"ls f{index}", "ls", (f"f{index}",)), places)
        Facts(Piece(f"ls f{index}", "ls", (f"f{index}",)), places)  # (seen again: kept)
    assert 0 < len(READINGS) <= READINGS_KEPT
