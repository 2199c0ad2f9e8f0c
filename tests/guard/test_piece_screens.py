"""Screens told from a piece's words alone (`bench_guard`'s fresh row): the losses layer
leaves a piece it calls inert as it is (`losses._inert`, kept beside a recurring piece's
reading), and git's three marks skip a git call naming none of their words
(`marks._git_marked`). Each checked over every piece of the shipped corpora against
the full work, and behind the screen on the calls it lets through."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from amplifier_hooks.cli.corpus import load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import event_data
from amplifier_hooks.guard import Places, judge, load_pack, losses
from amplifier_hooks.guard.callpieces import _reparse
from amplifier_hooks.guard.calls import everyday_shell_command
from amplifier_hooks.guard.destinations import mark_destinations
from amplifier_hooks.guard.evalpieces import with_evaluated
from amplifier_hooks.guard.facts import Facts
from amplifier_hooks.guard.fetchedruns import FETCHED_RUN, mark_fetched_runs
from amplifier_hooks.guard.gitconfigscripts import CONFIG_SCRIPT, mark_config_scripts
from amplifier_hooks.guard.guardcommits import UNDONE, mark_guard_commits
from amplifier_hooks.guard.hubsends import mark_uploads
from amplifier_hooks.guard.lossrules import RULES
from amplifier_hooks.guard.marks import _git_marked, marked
from amplifier_hooks.guard.memo import begin, end
from amplifier_hooks.guard.model import Piece, PieceVerdict
from amplifier_hooks.guard.modes import mark_tightened
from amplifier_hooks.guard.notebookruns import mark_remote_notebooks
from amplifier_hooks.guard.npmwords import spell_npm
from amplifier_hooks.guard.owninput import mark_own_input
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.piecescreen import may_rewrite
from amplifier_hooks.guard.policy import pieces_for
from amplifier_hooks.guard.readings import forget_readings
from amplifier_hooks.guard.valueless import GIT_WORDS, mark_valueless
from amplifier_hooks.guard.vardefaults import with_defaults
from amplifier_hooks.guard.winshells import windows_pieces
from tests.guard.conftest import DEV_PLACES, session_places

_ENABLED = frozenset(RULES)


@pytest.fixture
def forgotten() -> Iterator[None]:
    forget_readings()
    losses._INERT.clear()
    yield
    forget_readings()
    losses._INERT.clear()


def _pieces(command: str) -> tuple[Piece, ...]:
    return parse_command(command).pieces


def _case_pieces() -> Iterator[tuple[str | None, Piece, Places]]:
    for path in shipped_corpora():
        for case in load_corpus(path):
            places = session_places(case.call.cwd, case.call.home)
            token = begin()
            try:
                command, pieces, _ = pieces_for(event_data(case.call), places)
            finally:
                end(token)
            for piece in pieces:
                yield command, piece, places


@pytest.mark.parametrize(
    "command",
    ["git status", "git log --oneline -5", "pytest -q tests/test_7.py", "ls -la src", "true"],
)
def test_everyday_pieces_are_inert(command: str) -> None:
    assert losses._inert(_pieces(command)[0])


@pytest.mark.parametrize(
    "command",
    [
        "git checkout -- src/a.py",  # a discard: git is asked
        "git diff --output=notes.txt",  # an output file: overwritten
        "rm -rf build",  # a delete
        "cat .env",  # a secret's name
        "cp a.py b.py",  # an overwrite
        "echo x > notes.txt",  # a redirection
        "grep -r token --include=*.pem .",  # a search's file filter
        "ls \u2010la",  # a word not in ASCII (a look-alike dash)
    ],
)
def test_pieces_the_layer_may_change_are_not_inert(command: str) -> None:
    assert not losses._inert(_pieces(command)[0])


@pytest.mark.timeout(600)  # every piece of every shipped case
def test_an_inert_piece_of_every_shipped_case_keeps_every_verdict() -> None:
    """What `_inert` claims, piece by piece: `_review` gives back the verdict it is given
    (an allow, an ask and no opinion; no repository facts, every rule of the layer on)."""
    seen = 0
    for command, piece, places in _case_pieces():
        if piece.program is None or not losses._inert(piece):
            continue
        token = begin()
        try:
            facts = Facts(piece, places)
            for decision in ("allow", "ask", None):
                given = PieceVerdict(piece.text, piece.program, decision, "r", "why")
                assert losses._review(facts, given, None, command, _ENABLED) is given, piece
        finally:
            end(token)
        seen += 1
    assert seen > 1000  # (most pieces are inert: the screen is worth its test)


def test_inert_is_kept_beside_a_recurring_reading(forgotten: None) -> None:
    command = {"tool_name": "bash", "tool_input": {"command": "git status"}}
    pack = load_pack()
    for _ in range(4):  # its reading kept from the second call, the screen from the third
        assert judge(command, pack, DEV_PLACES).decision == "allow"
    [(reading, inert)] = losses._INERT.values()
    assert inert is True
    assert reading[12][1] == "git"  # (the reading's key: its tool, then its program)


def test_a_recurring_discard_is_still_asked(forgotten: None) -> None:
    command = {"tool_name": "bash", "tool_input": {"command": "git checkout -- src/a.py"}}
    pack = load_pack()
    decisions = {judge(command, pack, DEV_PLACES).decision for _ in range(4)}
    assert decisions == {"ask"}  # at every call, its reading kept or not


@pytest.mark.parametrize(
    ("command", "mark"),
    [
        ("git clone https://example.com/x.git d && d/setup.sh", FETCHED_RUN),
        ("git log --grep=amplifier-hooks --format=%H | xargs git revert", UNDONE),
        ("git config core.hooksPath /home/dev/hooks", CONFIG_SCRIPT),
    ],
)
def test_git_marks_behind_the_screen(command: str, mark: str) -> None:
    pieces = marked(_pieces(command), command, DEV_PLACES)
    assert any(mark in p.wrappers for p in pieces)


@pytest.mark.timeout(600)  # every piece of every shipped case
def test_git_calls_the_screen_stops_get_no_git_mark() -> None:
    """Every git piece of the shipped cases that `_git_marked` stops goes through the
    three marks as it is (other fetchers, `hf download`, pass `marks.marked`'s set test)."""
    for _, piece, places in _case_pieces():
        pieces = (piece,)
        if piece.program != "git" or _git_marked(pieces):
            continue
        assert mark_fetched_runs(pieces, places) is pieces
        assert mark_guard_commits(pieces) is pieces
        assert mark_config_scripts(pieces, places) is pieces


@pytest.mark.parametrize(
    "command",
    [
        "cmd /c dir",  # a Windows program: read as cmd.exe's
        "$(which rm) -rf ~",  # computed: evaluated
        "npm pub",  # npm's command word: spelled out
        "cat ${KUBECONFIG:-~/.kube/config}",  # a written default
        "echo '${A:-x}' > notes.txt",  # a default in quotes, and in a redirection
    ],
)
def test_pieces_a_first_reader_may_change_are_not_screened_out(command: str) -> None:
    assert may_rewrite(_pieces(command))


@pytest.mark.timeout(600)  # every shipped case's command
def test_pieces_screened_out_pass_the_four_readers_as_they_are() -> None:
    """What `piecescreen.may_rewrite` claims, for every shell command of the shipped
    cases: when it says no, each of the four readers returns the parsed pieces as they
    are (the same tuple)."""
    screened = 0
    for path in shipped_corpora():
        for case in load_corpus(path):
            places = session_places(case.call.cwd, case.call.home)
            command = everyday_shell_command(event_data(case.call))
            pieces = _pieces(command) if command else ()
            if not pieces or may_rewrite(pieces):
                continue
            token = begin()
            try:
                assert windows_pieces(pieces, places.known.home) is pieces, command
                assert with_evaluated(command or "", pieces, places, _reparse) is pieces, command
                assert spell_npm(pieces) is pieces, command
                assert with_defaults(pieces) is pieces, command
            finally:
                end(token)
            screened += 1
    assert screened > 1000  # (most commands: the screen is worth its test)


@pytest.mark.timeout(600)  # every piece of every shipped case
def test_git_calls_without_history_words_get_no_first_mark() -> None:
    """Every git piece of the shipped cases that `marks.marked`'s first look stops (a git
    call naming none of `valueless.GIT_WORDS`, writing nothing) goes through its first
    six marks as it is."""
    stopped = 0
    for _, piece, places in _case_pieces():
        pieces = (piece,)
        if piece.program != "git" or piece.writes or not GIT_WORDS.isdisjoint(piece.args):
            continue
        assert mark_valueless(pieces) is pieces, piece.text
        assert mark_tightened(pieces) is pieces, piece.text
        assert mark_own_input(pieces) is pieces, piece.text
        assert mark_uploads(mark_remote_notebooks(pieces)) is pieces, piece.text
        assert mark_destinations(pieces, places) is pieces, piece.text
        stopped += 1
    assert stopped > 100
