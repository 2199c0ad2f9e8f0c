"""An interpreter told only to check syntax (php -l, ruby -c, node --check) runs none of
what flows into it (guard/flow.py `_CHECKS_ONLY`); perl -c runs BEGIN blocks, so it does."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    "command",
    [
        "find app -name '*.php' -print0 | xargs -0 -n1 php -l",
        "git ls-files '*.rb' | xargs -n1 ruby -c",
        "find src -name '*.js' | xargs -n1 node --check",
        "cat app/x.php | php -l",
    ],
)
def test_syntax_checks_fed_by_a_pipe_are_not_code_runs(command: str) -> None:
    decision, rule = decided(command)
    assert rule != "piped-to-shell" and decision != "deny", (decision, rule)


@pytest.mark.parametrize(
    "command",
    ["cat x.pl | perl -c", "cat app/x.php | php"],
)
def test_other_interpreter_sinks_stay_asked(command: str) -> None:
    decision, _ = decided(command)
    assert decision in ("ask", "deny")
