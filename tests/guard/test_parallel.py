"""GNU parallel runs a command once per input, through a shell: the guard judges each
command it would run, and never grants parallel itself."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.table import commands_run, read_call
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("args", "runs"),
    [
        # an input goes where a replacement string is, quoted as parallel quotes it
        (("gzip", "-k", "{}", ":::", "a.log", "my file.log"),
         ("gzip -k a.log", "gzip -k 'my file.log'")),
        # no replacement string: the input goes at the end
        (("wc", "-l", ":::", "a.txt"), ("wc -l a.txt",)),
        # {2} is the second source's value; sources combine
        (("cp", "{1}", "{2}", ":::", "a", ":::", "x", "y"), ("cp a x", "cp a y")),
        # options and their values are not the command
        (("-j", "4", "--eta", "-Shost", "make", "{}", ":::", "t1"), ("make t1",)),
        # ... in any spelling parallel reads (`_OPTIONS`): bundled, abbreviated, `=`
        (("-kj", "4", "make", "{}", ":::", "t1"), ("make t1",)),
        (("--max-p", "4", "make", "{}", ":::", "t1"), ("make t1",)),
        (("--jobs=4", "-ka", "list.txt", "rm"), ("rm $PARALLEL_INPUT",)),
        (("--arg-f", "list.txt", "rm"), ("rm $PARALLEL_INPUT",)),
        # no command: each input is one
        ((":::", "ls src", "pwd"), ("ls src", "pwd")),
        # words are joined for the shell, as parallel does without -q
        (("echo", "a;", "ls", ":::", "x"), ("echo a; ls x",)),
        (("-q", "echo", "a;", "ls", ":::", "x"), ("echo 'a;' ls x",)),
        # inputs from a file or a pipe are known only at run time
        (("rm", "{}", "::::", "list.txt"), ("rm $PARALLEL_INPUT",)),
        (("rm",), ("rm $PARALLEL_INPUT",)),
        (("-a", "list.txt", "rm"), ("rm $PARALLEL_INPUT",)),
    ],
)  # fmt: skip
def test_the_commands_parallel_runs(args: tuple[str, ...], runs: tuple[str, ...]) -> None:
    assert commands_run("parallel", args) == runs
    assert read_call("parallel", args).doubt is None


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("parallel git reset --hard ::: HEAD~2", "git-reset-hard"),
        ("parallel -j2 rm -rf {} ::: build ~", "rm-root-or-home"),
        ("parallel ::: 'rm -rf ~'", "rm-root-or-home"),
        ("parallel --sshlogin=ci git clean -fdx ::: .", "git-clean"),
        ("parallel git clean -f {2} ::: x ::: -d", "git-clean"),
    ],
)
def test_what_parallel_runs_meets_the_deny_rules(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule), result.pieces


def test_commands_read_from_its_input_are_asked(verdict: Judge) -> None:
    result = verdict("cat jobs.txt | parallel")
    assert result.decision == "ask", result.pieces


@pytest.mark.parametrize("command", ["parallel gzip -k {} ::: a.log b.log", "parallel ::: ls pwd"])
def test_parallel_is_never_granted(verdict: Judge, command: str) -> None:
    assert verdict(command).decision is None


@pytest.mark.parametrize(
    ("command", "rule"),
    [("man -P reboot ls", "system-power"), ("rg --pre=shutdown TODO", "system-power-shutdown")],
)
def test_a_command_an_option_runs_is_judged_when_every_word_is_plain(
    verdict: Judge, command: str, rule: str
) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule), result.pieces
