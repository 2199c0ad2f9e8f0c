"""A computed program or word the evaluator fully resolves (`evalwhole`): judged as the
command written out, never granted; anything unresolved, guessed or losing work keeps
the parse's ask."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.evalpieces import EVALUATED
from amplifier_hooks.guard.evaluate import evaluate
from amplifier_hooks.guard.evalwhole import resolved
from tests.guard.conftest import Judge

CWD = "/home/dev/project"


@pytest.mark.parametrize(
    "command",
    [
        "PY=python3; $PY -m pytest -q tests/unit",
        'cmd=(npm run build -- --mode production); "${cmd[@]}"',
        "tools=(ruff mypy pytest); ${tools[0]} check src && ${tools[1]} src",
        'set -- src tests; black --check "$@"',
        'RM="rm -rf"; $RM .mypy_cache .ruff_cache __pycache__',
        'cmd=(ls -la); "${cmd[@]}"',
    ],
)
def test_a_resolved_harmless_command_has_no_opinion(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision is None, (command, judged)
    assert any(p.reason is None or "not granted" in (p.reason or "") for p in judged.pieces)


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ('RM="rm -rf"; $RM ~', "deny"),  # its twin: judged as written out
        ('cmd=(git push --force origin main); "${cmd[@]}"', "deny"),
        ("R=rm; $R -rf src", "ask"),  # a computed delete of work: a person reads it
        ('RM="rm -rf"; $RM .mypy_cache src', "ask"),
        ("X=ls; X=rm; $X -rf build", "ask"),
        ("PY=${PYTHON:-python3}; $PY -m pip list", "ask"),  # a default it may not take
        ("$(which python) -m pytest", "ask"),  # what PATH finds is a guess
        ("PY=$(cat .python); $PY -m pytest", "ask"),  # unresolved
        ("for t in ruff mypy; do $t src; done", "ask"),  # a loop's variable: unknown
        ('read -ra c <<< "git push -f origin main"; "${c[@]}"', "ask"),
        ("P=python3; $P -m pytest > /etc/motd", "deny"),
    ],
)
def test_its_harmful_or_unresolved_twin_is_still_stopped(verdict: Judge, command: str,
                                                         decision: str) -> None:  # fmt: skip
    judged = verdict(command)
    assert judged.decision == decision, (command, judged)


def test_the_resolved_piece_is_marked_evaluated(verdict: Judge) -> None:
    judged = verdict("PY=python3; $PY -m pytest")
    assert [p.program for p in judged.pieces if p.program == "python3"] == ["python3"]
    assert judged.decision != "allow"


def test_whole_needs_every_run_certain_and_told() -> None:
    assert resolved(evaluate("PY=python3; $PY -m pytest", CWD, "/home/dev")) == {"$PY -m pytest"}
    assert not resolved(evaluate("PY=${PYTHON:-python3}; $PY -m pytest", CWD, "/home/dev"))
    assert not resolved(evaluate("$(which python) -m pytest", CWD, "/home/dev"))
    # one run of the same text unknown: the text is not whole
    assert not resolved(evaluate("X=ls; $X a; X=$(date); $X a", CWD, "/home/dev"))
    assert EVALUATED
