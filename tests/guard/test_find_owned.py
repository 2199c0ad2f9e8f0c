"""A ``find`` whose tests can match a protected place, with an action that changes what it
finds, is judged as that action applied to the place (`findowned`, `findexpr`); a find
whose tests cannot match one stays as before."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.findexpr import parse_find
from amplifier_hooks.guard.findowned import found_owned
from tests.guard.conftest import decided

DENIED = [
    "find . -maxdepth 1 -name '.c*' -exec rm -rf {} +",
    "find . -path '*/.claude/*' -name 'settings*.json' -exec truncate -s0 {} +",
    "find . -name '.c*' -delete",
    "find . -maxdepth 1 -name '.c*' -execdir rm -rf {} +",
    "find . -maxdepth 2 -iname '.CODEX' -ok rm -rf {} \\;",
    "find . -name '.c*' | xargs rm -rf",
    "find . -name '.c*' -print0 | xargs -0 rm -rf",
    "find . -name '.gemini' -prune -exec rm -rf {} +",
    "find . -regex '.*/\\.c[a-z]+' -exec rm -rf {} +",
    "find . -regextype posix-extended -regex '.*/(hooks|x)' -exec rm -rf {} +",
    "find . -not -name '*.pyc' -path '*/hooks/*' -delete",
    "find . -name '*.pyc' -o -name 'hooks.json' -exec truncate -s 0 {} +",
    "find ~ -maxdepth 1 -name '.claude*' -exec rm -rf {} +",
    "find . -type d -name '.github' -exec rm -rf {} +",
]
"""Each can reach a protected place (a host's folder, its settings, its hook scripts)."""

FREE = [
    "find . -name '*.pyc' -delete",
    "find . -name '*.pyc' -exec rm -f {} +",
    "find . -type d -name __pycache__ -exec rm -rf {} +",
    "find . -name '.c*' -print",
    "find . -name 'settings.json' -exec cat {} +",
    "find . -maxdepth 1 -type f -name '.c*' -exec rm -f {} +",
    "find . -name '.DS_Store' -delete",
    "find build -name '*.o' -delete",
    "find . -name '*.log' | xargs rm -f",
    "find . -type f -name '*.sh' -exec chmod +x {} +",
    "find . -name node_modules -type d -prune -exec rm -rf '{}' +",  # (`_DEPENDENCIES`)
    "find build -name '*.json' -delete",  # (a folder of the person's own)
]
"""Near misses: tests no protected place satisfies, or an action that only reads."""


@pytest.mark.parametrize("command", DENIED)
def test_a_find_that_can_reach_a_protected_place_is_denied(command: str) -> None:
    assert decided(command)[0] == "deny"


@pytest.mark.parametrize("command", FREE)
def test_a_find_whose_tests_match_no_protected_place_is_not_stopped(command: str) -> None:
    assert decided(command)[0] not in ("deny", "ask")


def test_a_pruned_folder_is_not_walked_into() -> None:
    found = found_owned((".", "-path", "./.claude", "-prune", "-o", "-name", "settings*.json",
                         "-exec", "rm", "{}", "+"))  # fmt: skip
    # `./.claude` is pruned; the same folder further down (`./src/.claude`) is not
    assert "./.claude" not in found.get(7, [])
    assert "./.gemini/settings.json" in found[7]


def test_depth_limits_what_is_found() -> None:
    assert found_owned((".", "-maxdepth", "1", "-name", "settings.json", "-delete")) == {}
    assert found_owned(
        (".", "-mindepth", "3", "-maxdepth", "3", "-name", ".claude", "-delete")
    ) == {7: ["./.claude"]}  # fmt: skip  (./x/y/.claude)


def test_the_print_find_adds_feeds_xargs() -> None:
    assert found_owned((".", "-name", ".codex")) == {3: ["./.codex"]}


def test_an_expression_not_read_says_nothing() -> None:
    assert found_owned((".", "-name", ".claude", "-frobnicate", "-delete")) == {}
    assert found_owned((".", "(", "-name", ".claude", "-delete")) == {}
    assert found_owned((".", "-name")) == {}
    assert parse_find((".", "-exec", "rm", "{}"), 1) is None  # (no `;` or `+`)
    assert parse_find((".", "-maxdepth", "x"), 1) is None
    assert parse_find((".", "-o", "-delete"), 1) is None


def test_a_test_the_name_cannot_answer_may_go_either_way() -> None:
    found = found_owned((".", "-mtime", "+7", "-name", ".cursor", "-exec", "rm", "-rf", "{}",
                         ";"))  # fmt: skip
    assert found == {5: ["./.cursor"]}
    assert found_owned((".", "-false", "-name", ".cursor", "-delete")) == {}


def test_a_start_point_the_shell_computes_or_a_folder_below_is_left_alone() -> None:
    assert found_owned(("$DIR", "-name", ".claude", "-delete")) == {}
    assert found_owned(("build", "-name", "*.json", "-delete")) == {}  # (the person's own)
    assert found_owned(("$PWD", "-name", ".codex", "-delete")) == {3: ["$PWD/.codex"]}


def test_a_find_that_keeps_everything_is_judged_by_its_start_points() -> None:
    # nothing filtered: the start points themselves are what the rules see
    assert decided("find ~ -delete") == ("deny", "rm-root-or-home")
    assert decided("find . -mindepth 1 -delete") == ("deny", "rm-workspace-root")
    assert decided("find ~ -type f -exec cat {} +") == ("ask", "read-home-whole-found")


SCREENED = [
    ("find", ".", "-name", "__pycache__", "-prune", "-o", "-name", "*.pyc", "-delete"),
    ("find", "~", "-name", "*", "-delete"),
    ("find", ".", "-iname", "SETTINGS*", "-delete"),
    ("find", ".", "-not", "-name", "x", "-delete"),
    ("find", ".", "(", "-name", "a", "-o", "-name", "hooks", ")", "-exec", "rm", "{}", "+"),
    ("find", ".", "-name", "hook*", "-type", "d", "-delete"),
    ("find", "~", "-name", "*.json", "-print", "-a", "-delete"),
    ("find", ".", "!", "(", "-name", "x", "-delete", ")"),
    ("find", ".", "-name", "x", "-o", "-type", "d", "-delete"),
    ("find", ".", "-regex", ".*/\\.c[a-z]+", "-exec", "rm", "-rf", "{}", "+"),
]


@pytest.mark.parametrize("words", SCREENED)
def test_the_name_screen_finds_what_the_walk_finds(
    words: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Expr.may_act_on` only skips places `reaches` would find nothing on."""
    screened = found_owned(words[1:])
    monkeypatch.setattr("amplifier_hooks.guard.findexpr.Expr.may_act_on", lambda *_: True)
    assert found_owned(words[1:]) == screened


def test_an_action_behind_a_name_test_the_name_fails_is_screened_out() -> None:
    expr = parse_find(("-name", "__pycache__", "-prune", "-o", "-name", "*.pyc", "-delete"), 0)
    assert expr is not None
    assert not expr.may_act_on(".claude") and expr.may_act_on("a.pyc")
    assert not expr.may_act_on("__pycache__")  # (its -prune is no action that changes)
    either = parse_find(("-name", "x", "-o", "-type", "d", "-delete"), 0)
    assert either is not None and either.may_act_on(".claude")
    folded = parse_find(("-iname", "SETTINGS*", "-delete"), 0)
    assert folded is not None and folded.may_act_on("settings.json")
    printed = parse_find(("-name", "nothing"), 0)
    assert printed is not None and printed.may_act_on(".claude")  # (find prints it)


def test_a_regex_python_cannot_read_may_match_each_time() -> None:
    expr = parse_find(("-regex", "a[", "-delete"), 0)
    assert expr is not None
    for _ in range(2):  # (the second from the compiled patterns kept)
        assert expr.reaches(".", (".claude",), "d") == frozenset({2})
