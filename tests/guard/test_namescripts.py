"""Code bash runs from a builtin's variable names (an array subscript it expands) and from
``mapfile -C``: judged as commands of their own, however the words are quoted."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.namescripts import name_scripts
from tests.guard.conftest import Judge

RUN = [
    ("printf -v 'a[$(rm -rf ~)]' x", "rm-root-or-home"),
    ("printf -v a[$(rm -rf ~)] x", "rm-root-or-home"),
    ("read 'a[$(rm -rf ~)]' <<< x", "rm-root-or-home"),
    ("read -r 'line[$(cat ~/.ssh/id_rsa >&2)]' <<< x", "credential-read"),
    ("let 'n[$(rm -rf ~)]=1'", "rm-root-or-home"),
    ("test -v 'a[`rm -rf ~`]'", "rm-root-or-home"),
    ("printf -v 'a[b[$(rm -rf ~)]]' x", "rm-root-or-home"),
    ("mapfile -C 'rm -rf ~' -c 1 < notes.txt", "rm-root-or-home"),
    ("readarray -t -C 'cat ~/.ssh/id_rsa #' -c 1 lines < notes.txt", "credential-read"),
    ("mapfile -tC'rm -rf ~' -c1 < notes.txt", "rm-root-or-home"),
    # the name comes from a variable: the evaluator reads its value (`evaluate`)
    ("set -- 'a[$(rm -rf ~)]'; read \"$1\" <<< x", "rm-root-or-home"),
    ("n='a[$(rm -rf ~)]'; printf -v \"$n\" x", "rm-root-or-home"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "rule"), RUN)
def test_a_subscript_or_callback_that_runs_a_command_is_judged(
    command: str, rule: str, verdict: Judge
) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule), result.pieces


FREE = [
    "printf -v now '%(%F)T' -1", "printf -v 'row[i+1]' '%s' x", "read -rp 'Continue [y/N]? ' a",
    "printf '%s[%d]\\n' x 1", "test -v 'arr[1]'", "read -r -a parts <<< 'a b c'",
]  # fmt: skip


@pytest.mark.parametrize("command", FREE)
def test_names_that_run_nothing_stay_granted(command: str, verdict: Judge) -> None:
    assert verdict(command).decision == "allow", verdict(command).pieces


def test_the_texts_read() -> None:
    assert name_scripts("read", ("-r", "x")) == []
    assert name_scripts("read", ("a[$(id)",)) == [": $(id)"]  # unclosed: judged all the same
    assert name_scripts("mapfile", ("-d", "C", "-t")) == []  # -d's value is not -C
    assert name_scripts("mapfile", ("-C", "cb", "arr")) == ["cb"]
    assert name_scripts("mapfile", ("-u", "3", "-C", "cb")) == ["cb"]
    assert name_scripts("mapfile", ("--", "-C")) == []
    assert name_scripts("mapfile", ("-C",)) == []
