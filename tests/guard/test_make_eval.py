"""``make --eval=TEXT`` adds the rules of TEXT, whose recipes make hands to the shell: they
are read as the commands they are (guard/makefiles.py), so a recipe that is stopped on its
own is stopped here too; make itself keeps ``make-eval``'s ask, and text the guard does
not read whole (``$(shell ...)``) leaves it at that.
"""

from __future__ import annotations

import pytest

from .conftest import decided

STOPPED = [
    ("make -f /dev/null --eval='nuke: ; rm -rf $$HOME' nuke", "rm-root-or-home"),
    ("make --eval='x:;rm -rf $(HOME)' x", "rm-root-or-home"),
    ("make --eval 'x: ; rm -rf ~' x", "rm-root-or-home"),
    ("gmake -E 'x: ; git reset --hard' x", "git-reset-hard"),
]

ASKED = [
    "make --eval='x: ; @echo hi' x",
    "make --eval='x: ; $(shell id)' x",  # not read whole
    "make --eval='VERSION := 1.2' build",  # no rule: nothing more runs
]


@pytest.mark.parametrize(("line", "rule"), STOPPED)
def test_an_eval_recipe_is_judged_as_its_command(line: str, rule: str) -> None:
    assert decided(line) == ("deny", rule)


@pytest.mark.parametrize("line", ASKED)
def test_make_eval_stays_asked(line: str) -> None:
    assert decided(line) == ("ask", "make-eval")


def test_make_without_eval_is_unchanged() -> None:
    assert decided("make build") == (None, None)
