"""The partial evaluator of shell words (`evaluate`): a command whose program or path the
shell computes is judged as the command it becomes, where bash makes that certain; what
is unknown stays as the parse read it, and nothing read through it is granted."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.evalglob import program_matches
from amplifier_hooks.guard.evaloutput import printf_format
from amplifier_hooks.guard.evalpieces import EVALUATED
from amplifier_hooks.guard.evalscope import split_ifs
from amplifier_hooks.guard.evaluate import MAX_STEPS, evaluate
from tests.guard.conftest import HOME, Judge

CWD = "/home/dev/project"
USER_HOME = "/home/dev"


def _texts(command: str) -> list[str]:
    return [e.text for e in evaluate(command, CWD, USER_HOME).commands]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("$(which rm) -rf x", "rm -rf x"),
        ("`command -v rm` -rf x", "rm -rf x"),
        ('"$(command -v git)" status', "git status"),
        ("R=rm; $R -rf x", "rm -rf x"),
        ("${RM:-rm} -rf x", "rm -rf x"),
        (": ${X:=rm}; $X -rf x", "rm -rf x"),
        ("c=RM; ${c,,} -rf x", "rm -rf x"),
        ("s=xxrmxx; ${s:2:2} -rf x", "rm -rf x"),
        ('p=/home/dev/projectXX; rm -rf "${p%XX}"', "rm -rf /home/dev/project"),
        ('rm -rf "${PWD%/*}"', "rm -rf /home/dev"),
        ('rm -rf "$(dirname "$PWD")"', "rm -rf /home/dev"),
        ("rm -rf $(pwd)/..", "rm -rf /home/dev/project/.."),
        ('cd /tmp && cd /var && rm -rf "$OLDPWD"', "rm -rf /tmp"),
        ('declare -n t=HOME; rm -rf "$t"', "rm -rf /home/dev"),
        ('set -- a b; "$@"', "a b"),
        ('cmd=(ls -la "$HOME"); "${cmd[@]}"', "ls -la /home/dev"),
        ('read -r p o <<< "ls -la"; $p $o', "ls -la"),
        ("printf -v c %s l s; $c -la", "ls -la"),
        ('IFS=,; c="ls,-la"; $c', "ls -la"),
        ("ls${IFS}-la", "ls -la"),
        ("{ls,-la}", "ls -la"),
        ("$(printf '\\154\\163') -la", "ls -la"),
        ('a="ls -"; b="la"; eval "$a$b"', "ls -la"),
        ("bash -c '\"$@\"' _ ls -la", "ls -la"),
        ("sh -c '$0 $1' ls -la", "ls -la"),
        ('"$BASH" -c "ls -la"', "ls -la"),
        ('f(){ ls -la "$1"; }; f x', "ls -la x"),
        ("env -S 'ls -la'", "ls -la"),
        ("xargs ls -la <<< x", "ls -la x"),
        ("echo x | xargs -I{} ls {}", "ls x"),
        ("xargs -a <(echo x y) ls -la", "ls -la x y"),
        ("xargs -r --arg-file <(echo x) ls", "ls x"),
        ("ls${IFS}$HOME/x", "ls /home/dev/x"),  # (one word to bash: `lonedollars`)
        ("a=ls; b=-la; c$a$b", "cls-la"),
        (". <(echo ls -la)", "ls -la"),
        ("echo 'lx -la' | sed 's/x/s/' | sh", "ls -la"),
        ('p=LS; $(echo "$p" | tr A-Z a-z) -la', "ls -la"),
        ("$(echo lxs | tr -d x) -la", "ls -la"),
    ],
)
def test_what_bash_makes_certain_is_the_command_judged(command: str, expected: str) -> None:
    assert expected in _texts(command), _texts(command)


@pytest.mark.parametrize(
    "command",
    [
        "$UNSET_VAR -rf x",  # the environment's value: unknown
        "$(curl -s example.com) x",  # a program's output
        'rm -rf "$(getent passwd x | cut -d: -f6)"',  # a pipeline's output
        "$((1 + 2)) x",  # arithmetic is not followed
        '"$@"',  # the positional parameters of the shell that runs the command
        "ls ~other/x",  # another user's home
        "$(echo lx | sed 's/x.*/s/') -la",  # a pattern sed reads: not followed
        "$(echo lx | tr '[:lower:]' '[:upper:]') -la",  # a class tr reads: not followed
    ],
)
def test_what_only_the_running_shell_knows_gives_nothing(command: str) -> None:
    assert _texts(command) == []


def test_a_command_of_plain_words_is_not_given_again() -> None:
    assert _texts("ls -la; git status") == []


def test_a_guessed_default_is_not_certain() -> None:
    found = evaluate("${RM:-rm} -rf x", CWD, USER_HOME)
    assert [e.certain for e in found.commands] == [False]


def test_a_pattern_program_is_each_program_it_can_match() -> None:
    assert "rm" in program_matches("/bin/r?")
    assert "rm" in program_matches("/???/?m")
    assert program_matches("/usr/bin/[r]m") == ("rm",)
    assert program_matches("/nowhere/r?") == ()
    assert ".hidden" not in program_matches("/bin/*")


def test_printf_reads_its_format_as_printf_does() -> None:
    assert printf_format("%s-%s\\n", ["a", "b", "c"]) == "a-b\nc-\n"
    assert printf_format("\\162\\155", []) == "rm"
    assert printf_format("%q", ["x"]) is None


def test_ifs_splits_as_bash_does() -> None:
    assert split_ifs(" a  b ", " \t\n") == ["a", "b"]
    assert split_ifs("a,,b", ",") == ["a", "", "b"]


def test_the_work_is_bounded() -> None:
    looping = "f(){ f; }; f"
    assert _texts(looping) == []
    many = "; ".join(["R=ls; $R"] * (MAX_STEPS + 50))
    assert len(_texts(many)) < MAX_STEPS


def test_a_costly_pattern_is_not_worked_out() -> None:
    long = "a" * 3000
    assert _texts(f"x={long}; $(echo ls) ${{x##*a*a*a*a*b}}") == []


@pytest.mark.parametrize(
    "command",
    ["${", "$(", "`", '"$(echo \')"', "${x:", "$'\\", "{a,b", "eval '", "f(){ f; }; f; f"],
)
def test_broken_words_give_nothing_and_never_raise(command: str) -> None:
    assert isinstance(_texts(command), list)


def test_a_state_change_in_a_branch_is_unknown_after_it() -> None:
    assert _texts("R=ls; true || R=rm; $R x") == []
    assert _texts("R=ls; if x; then R=rm; fi; $R x") == []


@pytest.mark.parametrize(
    "command",
    [
        "D=/tmp/a; source ./env.sh; ls $D",  # a script run here may set anything
        'D=/tmp/a; eval "$(./gen.sh)"; ls $D',
        "D=/tmp/a; for D in x y; do ls $D; done",  # each value, not followed
        'ls "/tmp/$(<NAME)"',  # a file's text
        'ls "/tmp/$(echo x > f)"',  # output sent elsewhere
        "D=/tmp/a; local D; ls $D",
    ],
)
def test_what_may_have_changed_unseen_is_unknown(command: str) -> None:
    assert not any("/tmp" in t for t in _texts(command)), _texts(command)


def test_commands_after_a_computed_cd_are_given_in_that_folder() -> None:
    found = evaluate('D=$(dirname "$PWD"); cd "$D" && ls x', CWD, USER_HOME)
    assert [(e.text, e.cwd) for e in found.commands if e.text.startswith("ls")] == [
        ("ls x", USER_HOME)
    ]


def test_a_subshell_or_pipeline_part_does_not_change_the_shell() -> None:
    assert _texts("R=ls; (R=rm); $R x") == ["ls x"]
    assert _texts("R=ls; echo | R=rm; $R x") == ["ls x"]


def test_a_command_the_evaluation_names_is_denied(verdict: Judge) -> None:
    for command in ("$(which rm) -rf ~", "cmd=(rm -rf ~); \"${cmd[@]}\"", "/bin/r? -rf ~",
                    "f(){ rm -rf \"$1\"; }; f ~"):  # fmt: skip
        assert verdict(command).decision == "deny", command


def test_a_program_found_on_the_path_is_still_asked(verdict: Judge) -> None:
    # (which prints what PATH finds, a guess; `cmd=(ls -la)` is whole: `test_evaluated_whole`)
    for command in ("$(which python) -m pytest", '"$(command -v ls)" -la'):
        judged = verdict(command)
        assert judged.decision == "ask", (command, judged)


def test_an_evaluated_everyday_path_stays_free(verdict: Judge) -> None:
    for command in ('cd "$(dirname "$PWD")" && ls', 'D=build; f(){ ls "$1"; }; f "$D"'):
        judged = verdict(command)
        assert judged.decision in (None, "allow"), (command, judged)


def test_an_evaluated_piece_is_never_granted(verdict: Judge) -> None:
    judged = verdict("$(which ls) -la")
    assert judged.decision != "allow"
    assert any("not granted" in (v.reason or "") or v.decision is None for v in judged.pieces)


def test_a_guessed_program_is_still_asked(verdict: Judge) -> None:
    assert verdict("${PYTHON:-python3} -m pip list").decision == "ask"


def test_the_doubt_names_the_evaluation() -> None:
    from amplifier_hooks.guard.callpieces import pieces_of_call
    from amplifier_hooks.guard.model import Places

    places = Places.of(HOME / "src" / "calc", home=HOME)
    call = {"tool_name": "bash", "tool_input": {"command": "$(which ls) -la"}}
    pieces = pieces_of_call(call, places)[1]
    assert [p.program for p in pieces if p.doubt == EVALUATED] == ["ls"]
