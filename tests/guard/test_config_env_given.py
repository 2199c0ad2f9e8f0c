"""``git --config-env=KEY=VAR`` takes KEY's value from ``$VAR``: given ``VAR=VALUE`` on
the same command, the command the setting runs is VALUE, judged like any other
(`unwrap._given`); a value the shell computes stays unknown (asked)."""

from __future__ import annotations

from tests.guard.conftest import decided


def test_the_value_given_on_the_same_command_is_the_command_run() -> None:
    assert decided("P='rm -rf ~' git --config-env=core.pager=P log") == (
        "deny",
        "rm-root-or-home",
    )
    assert decided("X=1 P='rm -rf ~' git --config-env=core.fsmonitor=P status")[0] == "deny"
    assert decided("P=ls P='rm -rf ~' git --config-env=core.pager=P log")[0] == "deny"


def test_a_plain_value_is_judged_as_itself() -> None:
    assert decided("P='less -R' git --config-env=core.pager=P log")[0] != "deny"


def test_a_value_not_known_is_asked() -> None:
    assert decided('P="$(cat x)" git --config-env=core.pager=P log')[0] == "ask"
    assert decided("git --config-env=core.pager=P log")[0] == "ask"
    assert decided("Q='rm -rf ~' git --config-env=core.pager=P log")[0] == "ask"
