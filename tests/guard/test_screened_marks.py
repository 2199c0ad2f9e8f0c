"""The marks' screens: the everyday command goes through `marks.marked`, `supply_writes`
and `with_defaults` untouched (the same tuple, no mark's work: `bench_guard`'s fresh row),
and a command naming a mark's program is still marked behind the screen."""

from __future__ import annotations

from amplifier_hooks.guard import Places
from amplifier_hooks.guard.guardpids import GUARD_PIDS
from amplifier_hooks.guard.marks import marked
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.parser import parse_command
from amplifier_hooks.guard.remotecopies import COPIERS
from amplifier_hooks.guard.sentfiles import PROGRAMS as SENDERS
from amplifier_hooks.guard.supplypieces import LOCK_EDIT, supply_writes
from amplifier_hooks.guard.valueless import VALUES_UNREAD
from amplifier_hooks.guard.vardefaults import with_defaults

PLACES = Places.of("/home/dev/project", home="/home/dev")


def _pieces(command: str) -> tuple[Piece, ...]:
    return parse_command(command).pieces


def test_everyday_command_passes_every_screen_as_it_is() -> None:
    command = "git status && pytest -q tests/test_7.py"
    pieces = _pieces(command)
    assert marked(pieces, command, PLACES) is pieces
    assert supply_writes(pieces, PLACES) is pieces
    assert with_defaults(pieces) is pieces


def test_git_history_of_a_file_behind_the_screen_is_still_marked() -> None:
    for command in ("git status && git log --oneline -- .env", "git rm --cached .env"):
        pieces = marked(_pieces(command), command, PLACES)
        assert VALUES_UNREAD in pieces[-1].wrappers, command


def test_screen_sets_name_the_programs_their_marks_read() -> None:
    assert {"curl", "nc"} <= SENDERS
    assert {"scp", "rsync"} <= COPIERS


def test_signaller_behind_the_screen_is_still_marked() -> None:
    command = "pgrep -f amplifier-hooks | xargs kill"
    pieces = marked(_pieces(command), command, PLACES)
    assert any(GUARD_PIDS in p.wrappers for p in pieces if p.program == "kill")


def test_signaller_without_the_guard_named_is_not_marked() -> None:
    command = "lsof -ti :3000 | xargs kill"
    pieces = marked(_pieces(command), command, PLACES)
    assert not any(GUARD_PIDS in p.wrappers for p in pieces)


def test_lock_file_written_by_a_redirect_is_still_marked() -> None:
    command = "jq . package.json > package-lock.json"
    pieces = supply_writes(_pieces(command), PLACES)
    assert any(LOCK_EDIT in p.wrappers for p in pieces)


def test_word_with_a_default_still_gets_its_second_reading() -> None:
    pieces = with_defaults(_pieces("cat ${KUBECONFIG:-~/.kube/config}"))
    assert len(pieces) == 2
    assert pieces[1].args == ("~/.kube/config",)
