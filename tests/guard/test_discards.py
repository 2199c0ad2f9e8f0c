"""Routes that discard or delete without the usual spelling: git's clean.requireForce
turned off, the plumbing that writes the index over the worktree, `git rm -f` of the whole
workspace, deleting what .git keeps its history in, the current folder by a variable; and
words the shell gives a program that the grammar hides (a heredoc's `-` operand, a program
name that `$(printf rm)` prints)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard import Places, Policy, judge
from amplifier_hooks.guard.parser import parse_command
from tests.guard.conftest import Judge

DENIED = [
    ("git -c clean.requireForce=false clean -dx", "git-clean-unforced"),
    ("git -c clean.requireForce= clean -d", "git-clean-unforced"),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=clean.requireForce GIT_CONFIG_VALUE_0=0 git clean -d",
     "git-clean-unforced"),
    ("git config --global clean.requireForce off", "git-clean-unforced-config"),
    ("git checkout-index -a -f", "git-discard-index-all"),
    ("git checkout-index -af", "git-discard-index-all"),
    ("git checkout-index --all --force", "git-discard-index-all"),
    ("git read-tree -u --reset HEAD", "git-discard-index-reset"),
    ("git rm -rf .", "git-rm-force-all"),
    ("git rm -q --force -r -- .", "git-rm-force-all"),
    ("rm -rf .git/objects/pack", "rm-git-history"),
    ("rm .git/packed-refs", "rm-git-history"),
    ("rm -rf .git/refs", "rm-git-history"),
    ("du -sh .git/objects && rm -rf .git/logs", "rm-git-history"),
    ("git add -f .env && git commit -m x && git push", "git-add-ignored-secret"),
    ("git add --force config/.ENV.production", "git-add-ignored-secret"),
    ('rm -rf "$PWD"', "rm-current-folder"),
    ("rm -fr ${PWD}/", "rm-current-folder"),
    ('rm -rf "$(git rev-parse --show-toplevel)"', "rm-current-folder"),
    ("rm -r -f `pwd`", "rm-current-folder"),
]  # fmt: skip

NOT_STOPPED = [
    "git -c clean.requireForce=true clean -d", "git config clean.requireForce true",
    "git checkout-index -a", "git read-tree HEAD", "git rm -r --cached .", "git rm -n -rf .",
    "rm -f .git/index.lock", "git rm --cached .env", "git check-ignore -v .env",
    "git add -f .env.example", "git add -f dist/",
]  # fmt: skip


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_a_discard_by_another_route_is_denied(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule), result.pieces


def test_checkout_index_of_named_files_is_asked(verdict: Judge) -> None:
    result = verdict("git checkout-index -f -- src/app.py")
    assert (result.decision, result.rule) == ("ask", "git-discard-index-paths")


@pytest.mark.parametrize("command", NOT_STOPPED)
def test_what_loses_nothing_is_neither_asked_nor_denied(verdict: Judge, command: str) -> None:
    assert verdict(command).decision not in ("ask", "deny")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    key=st.sampled_from(["clean.requireForce", "CLEAN.REQUIREFORCE", "Clean.RequireForce"]),
    value=st.sampled_from(["false", "FALSE", "no", "Off", "0", ""]),
    flags=st.lists(st.sampled_from(["-d", "-x", "-X", "-q", "-dx"]), max_size=3),
)
def test_clean_requireforce_off_in_any_spelling_is_denied(
    key: str, value: str, flags: list[str], pack: Policy, places: Places
) -> None:
    """git reads config keys in any case and false as false/no/off/0/empty: the guard too."""
    command = " ".join(["git", "-c", f"{key}={value}", "clean", *flags])
    result = judge({"tool_name": "bash", "tool_input": {"command": command}}, pack, places)
    assert result.decision == "deny", command


@pytest.mark.parametrize(
    ("command", "args"),
    [("cat - <<EOF\nx\nEOF", ("-",)),
     ("cat -- <<EOF\nx\nEOF", ("--",)),
     ("cat - - <<EOF\nx\nEOF", ("-", "-"))],
)  # fmt: skip
def test_a_dash_before_a_heredoc_is_an_argument(command: str, args: tuple[str, ...]) -> None:
    """tree-sitter-bash leaves a lone ``-`` just before ``<<`` out of the command; bash
    gives it to the program (``make -f -`` reads its Makefile from the heredoc)."""
    (piece,) = parse_command(command).pieces
    assert piece.args == args


def test_a_makefile_on_stdin_is_judged_by_its_recipes(verdict: Judge) -> None:
    """The ``-`` before the heredoc is make's: its Makefile is the heredoc, whose recipes
    are read (`makefiles`) where the guard can read it whole, and asked where not."""
    (make, recipe) = parse_command("make -f - <<'MK'\nall:\n\ttrue\nMK").pieces
    assert (make.program, recipe.program, recipe.wrappers) == ("make", "true", ("make",))
    result = verdict("make -f - <<'MK'\nall:\n\tgit clean -fdx\nMK")
    assert (result.decision, result.rule) == ("deny", "git-clean")
    result = verdict("make -f - <<'MK'\nX := $(shell id)\nall:\n\tgit clean -fdx\nMK")
    assert (result.decision, result.rule) == ("ask", "makefile-unseen")


@pytest.mark.parametrize(
    ("command", "program"),
    [("$(printf rm) -rf x", "rm"), ("$(echo rm) -rf x", "rm"), ("`echo 'rm'` -rf x", "rm"),
     ("\"$(printf find)\" . -delete", "find")],
)  # fmt: skip
def test_a_program_name_printed_by_a_literal_is_that_program(command: str, program: str) -> None:
    """``$(printf WORD)`` and ``$(echo WORD)`` print WORD when it holds nothing the shell
    or printf would change."""
    assert parse_command(command).pieces[0].program == program


@pytest.mark.parametrize(
    "command",
    ["$(printf 'r%s' m) -rf ~", "$(echo -n rm) -rf ~", "$(printf 'r\\x6d') -rf ~",
     "$(which rm) -rf ~"],
)  # fmt: skip
def test_a_program_name_printed_otherwise_is_worked_out(verdict: Judge, command: str) -> None:
    """The parse does not name it; the evaluation (`evaluate`) runs printf, echo and which
    as bash would, and the command it becomes is judged."""
    assert (verdict(command).decision, verdict(command).rule) == ("deny", "rm-root-or-home")


def test_a_program_name_printed_from_the_environment_stays_unknown(verdict: Judge) -> None:
    judged = verdict("$(echo $X) -rf ~")
    assert (judged.decision, judged.rule) == ("ask", "guard-opaque")
