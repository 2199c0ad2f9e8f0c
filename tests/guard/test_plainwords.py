"""A plain program (`plainwords.plain`) skips the readings `facts.Facts` keeps for programs
it reads apart. Whoever gives a program a reading of its own there must name it in
`plainwords`, or the shortcut would read its words as plain paths: every verdict of the
shipped corpora must be the same with the shortcut as without it."""

from __future__ import annotations

import pytest

from amplifier_hooks.cli.corpus import load_corpus, shipped_corpora
from amplifier_hooks.cli.probe import event_data
from amplifier_hooks.guard import facts as facts_module
from amplifier_hooks.guard import judge, load_pack
from amplifier_hooks.guard.parser import forget_parsed
from amplifier_hooks.guard.plainwords import plain
from amplifier_hooks.guard.readings import forget_readings
from tests.guard.conftest import session_places


def _verdicts() -> dict[str, tuple[str | None, str | None]]:
    policy, found = load_pack(), {}
    for path in shipped_corpora():
        for case in load_corpus(path):
            call = case.call
            verdict = judge(event_data(call), policy, session_places(call.cwd, call.home))
            found[f"{path.name}:{case.id}"] = (verdict.decision, verdict.rule)
    return found


@pytest.mark.timeout(600)  # every shipped case, judged twice
def test_the_shortcut_changes_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    forget_parsed()
    forget_readings()
    with_shortcut = _verdicts()
    monkeypatch.setattr(facts_module, "plain", lambda program: False)
    forget_parsed()
    forget_readings()  # (each piece's reading is kept: read it again)
    without = _verdicts()
    forget_readings()
    changed = {k: (v, without[k]) for k, v in with_shortcut.items() if without[k] != v}
    assert not changed
    assert len(with_shortcut) > 2000


@pytest.mark.parametrize("program", ["pytest", "gofmt", "rustc", "mkdir", "npm", "jest"])
def test_everyday_programs_are_plain(program: str) -> None:
    assert plain(program)


@pytest.mark.parametrize(
    "program",
    ["cp", "tar", "unzip", "sqlite3", "ruff", "stow", "curl", "grep", "docker", "gh", "python3",
     "bash", "sed", "dd", "ssh", "echo", "go"],
)  # fmt: skip
def test_programs_read_apart_are_not(program: str) -> None:
    assert not plain(program)
