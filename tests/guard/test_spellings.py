"""Options as the program reads them: for any spelling git accepts for ``--force``, the
guard sees ``--force`` (which spellings git accepts is asked of git itself)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amplifier_hooks.guard.facts import split_args
from amplifier_hooks.guard.table import SPELLED, spelled
from amplifier_hooks.guard.table.git_options import (
    AM,
    BRANCH,
    CHECKOUT,
    CLEAN,
    MERGE,
    MV,
    PICK,
    PUSH,
    REBASE,
    RESET,
    RESTORE,
    RM,
    STASH_APPLY,
    STASH_DROP,
    STASH_PUSH,
    SWITCH,
    TAG,
    WORKTREE,
)
from amplifier_hooks.guard.table.options import Options

FORCED = ("push", "clean", "rm", "branch", "tag", "checkout", "worktree remove", "mv")
"""git subcommands with a ``--force`` option."""
SAFE_SHORT = {"push": "qv", "clean": "qndx", "rm": "qnr", "branch": "qv", "tag": "l",
              "checkout": "q", "worktree remove": "", "mv": "nv"}  # fmt: skip
"""Other one-letter options each takes with no value, to combine with ``-f`` (push's
``-n`` is a dry run, which pushes nothing: `test_git_push_dry_run`)."""


def _accepted(sub: str, spelling: str, folder: Path) -> bool:
    """Whether git reads ``spelling`` as an option of ``git SUB``: it is read before an
    option that does not exist, so git stops at that one (and runs nothing) if and only if
    it took ``spelling``."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": str(folder / "none"),
           "HOME": str(folder), "LC_ALL": "C"}  # fmt: skip
    done = subprocess.run(
        ["git", *sub.split(), spelling, "--no-such-option-at-all"],
        cwd=folder, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    return "no-such-option-at-all" in done.stderr


@pytest.fixture(scope="module")
def spellings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Each subcommand's spellings of ``--force`` that git accepts (its unique prefixes)."""
    folder = tmp_path_factory.mktemp("spell")
    subprocess.run(["git", "init", "-q", str(folder / "r")], check=True, capture_output=True)
    found: dict[str, list[str]] = {}
    for sub in FORCED:
        prefixes = ["--" + "force"[:n] for n in range(1, 6)]
        found[sub] = [p for p in prefixes if _accepted(sub, p, folder / "r")]
        assert "--force" in found[sub], sub
    return found


def test_git_accepts_some_abbreviations_and_the_guard_reads_exactly_those(
    spellings: dict[str, list[str]],
) -> None:
    assert "--forc" in spellings["clean"] and "--forc" not in spellings["push"]
    for sub in FORCED:
        for length in range(1, 6):
            spelling = "--" + "force"[:length]
            options = spelled("git", (*sub.split(), spelling))
            assert options is not None
            seen = "--force" in options.flags and options.doubt is None
            assert seen == (spelling in spellings[sub]), (sub, spelling)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_spelling_git_accepts_for_force_is_seen_as_force(
    spellings: dict[str, list[str]], data: st.DataObject
) -> None:
    sub = data.draw(st.sampled_from(FORCED))
    others = SAFE_SHORT[sub]
    cluster = st.builds(lambda a, b: f"-{a}f{b}", st.text(others, max_size=2),
                        st.text(others, max_size=2))  # fmt: skip
    spelling = data.draw(st.sampled_from(spellings[sub]) | cluster)
    operand = st.from_regex(r"[a-z][a-z0-9_./]{0,8}", fullmatch=True)
    before = data.draw(st.lists(operand, max_size=2))
    after = data.draw(st.lists(operand, max_size=2))
    negated_first = data.draw(st.booleans())
    globals_ = data.draw(st.sampled_from([(), ("--no-pager",), ("-C", "dir"), ("-c", "a.b=c")]))
    words = [*globals_, *sub.split(), *before]
    if negated_first:
        words.append("--no-force")
    words += [spelling, *after]
    flags, _, subcommand, _ = split_args("git", tuple(words))
    assert subcommand == sub.split()[0]
    assert "--force" in flags, words


@given(st.sampled_from(["--no-force", "--no-forc", "--no-f"]))
def test_a_later_negation_takes_force_away(negation: str) -> None:
    flags = split_args("git", ("clean", "-f", "--force", negation, "-n"))[0]
    assert "--force" not in flags and "-f" not in flags


@pytest.mark.parametrize(
    ("program", "args", "flag"),
    [("rm", ("--rec", "--forc", "x"), "--recursive"), ("sed", ("--in-pl", "s/a/b/", "f"), "-i"),
     ("sed", ("-i.bak", "s/a/b/", "f"), "--in-place"), ("sort", ("--out=x", "y"), "-o"),
     ("cp", ("-at", "dir", "x"), "--target-directory"), ("chmod", ("--rec", "777", "."), "-R")],
)  # fmt: skip
def test_gnu_long_options_are_read_by_their_unique_prefix(
    program: str, args: tuple[str, ...], flag: str
) -> None:
    options = spelled(program, args)
    assert options is not None and flag in options.flags and options.doubt is None


def test_an_ambiguous_or_unknown_option_is_unknown() -> None:
    for program, args in (("git", ("push", "--forc", "origin")),
                          ("git", ("restore", "--s", "x")), ("rm", ("--bogus", "x"))):  # fmt: skip
        options = spelled(program, args)
        assert options is not None and options.doubt is not None, args
    # what an ambiguous prefix could be is still seen, so deny and ask rules meet it
    pushed = spelled("git", ("push", "--forc"))
    assert pushed is not None and "--force-with-lease" in pushed.flags


@pytest.mark.parametrize(
    ("program", "args", "on", "off"),
    [("git", ("clean", "--no-force", "--force"), "--force", "--no-force"),
     ("git", ("clean", "--force", "--no-forc"), "--no-force", "-f"),
     ("git", ("restore", "--staged", "--no-staged", "f"), "--no-staged", "-S"),
     ("git", ("push", "--mir", "origin"), "--mirror", "--no-mirror"),
     ("git", ("branch", "-fd", "x"), "-D", "--no-delete"),
     ("git", ("branch", "-D", "x"), "--force", "--no-force"),
     ("git", ("switch", "--discard-ch", "main"), "--discard-changes", "-c"),
     ("git", ("worktree", "remove", "--forc", "/tmp/wt"), "--force", "--no-force"),
     ("git", ("-C", "x", "reset", "--har"), "--hard", "--soft"),
     ("git", ("stash", "drop", "-q"), "--quiet", "--no-quiet"),
     ("rm", ("-fr", "x"), "--recursive", "--no-recursive"),
     ("sort", ("-uo", "out", "in"), "--output", "-c"),
     ("chmod", ("-x", "f"), "", "-x")],
)  # fmt: skip
def test_combined_short_flags_and_the_last_of_an_option_win(
    program: str, args: tuple[str, ...], on: str, off: str
) -> None:
    options = spelled(program, args)
    assert options is not None and options.doubt is None, args
    assert (not on or on in options.flags) and off not in options.flags, options.flags


def test_an_option_value_is_a_word_that_may_name_a_path_but_not_an_operand() -> None:
    options = spelled("sort", ("-o", "~/.bashrc", "in.txt"))
    assert options is not None and options.operands == ("in.txt",)
    assert options.words == ("~/.bashrc", "in.txt")
    restore = spelled("git", ("restore", "-s", "HEAD", "file.txt"))
    assert restore is not None and restore.operands == ("file.txt",)


def test_a_lookalike_dash_is_doubt() -> None:
    options = spelled("rm", ("\u2014rf", "x"))
    assert options is not None and options.doubt is not None
    assert spelled("rm", ("--", "\u2014rf")).doubt is None  # type: ignore[union-attr]


LOSSY: dict[str, Options] = {
    "push": PUSH, "restore": RESTORE, "checkout": CHECKOUT, "switch": SWITCH, "rm": RM,
    "branch": BRANCH, "tag": TAG, "clean": CLEAN, "reset": RESET, "merge": MERGE,
    "rebase": REBASE, "cherry-pick": PICK, "revert": PICK, "am": AM, "stash push": STASH_PUSH,
    "stash apply": STASH_APPLY, "stash pop": STASH_APPLY, "stash drop": STASH_DROP,
    "worktree remove": WORKTREE, "mv": MV,
}  # fmt: skip
"""The subcommands whose options the rules and the losses layer read."""


def test_every_option_git_has_is_in_the_table(tmp_path: Path) -> None:
    """An abbreviation git reads as an option the table lacks could read as another one in
    the table; with git's options a subset of the table's, each abbreviation the table
    reads as one option is that option to git too (or git refuses it)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, capture_output=True)
    for sub, options in LOSSY.items():
        listed = subprocess.run(
            ["git", *sub.split(), "--git-completion-helper-all"], cwd=tmp_path,
            capture_output=True, text=True, check=False,
        ).stdout.split()  # fmt: skip
        names = {w[2:].rstrip("=") for w in listed if w.startswith("--") and len(w) > 2}
        assert names, sub
        assert names <= set(options.longs), (sub, sorted(names - set(options.longs)))


def test_the_spelled_programs_are_read_by_the_table() -> None:
    assert {"rm", "cp", "mv", "sed", "sort", "tee", "chmod", "truncate"} <= set(SPELLED)


def test_a_plus_refspec_is_force() -> None:
    for spec in ("+main", "refs/heads/main:+refs/heads/main", "+HEAD:feature"):
        assert "--force" in split_args("git", ("push", "origin", spec))[0], spec
    assert "--force" not in split_args("git", ("push", "origin", "main"))[0]
