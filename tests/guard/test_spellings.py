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
from amplifier_hooks.guard.spellings import read_git, read_gnu

FORCED = ("push", "clean", "rm", "branch", "tag", "checkout", "worktree remove", "mv")
"""git subcommands with a ``--force`` option."""
SAFE_SHORT = {"push": "qvn", "clean": "qndx", "rm": "qnr", "branch": "qv", "tag": "l",
              "checkout": "q", "worktree remove": "", "mv": "nv"}  # fmt: skip
"""Other one-letter options each takes with no value, to combine with ``-f``."""


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
            options = read_git(sub.split()[0], (*sub.split()[1:], spelling))
            assert options is not None
            seen = "--force" in options.flags and not options.unknown
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
    options = read_gnu(program, args)
    assert options is not None and flag in options.flags and not options.unknown


def test_an_ambiguous_or_unknown_option_is_unknown() -> None:
    assert read_git("push", ("--forc", "origin")).unknown  # type: ignore[union-attr]
    assert read_git("restore", ("--s", "x")).unknown  # type: ignore[union-attr]
    assert read_gnu("rm", ("--bogus", "x")).unknown  # type: ignore[union-attr]
    # what an ambiguous prefix could be is still seen, so deny and ask rules meet it
    assert "--force-with-lease" in read_git("push", ("--forc",)).flags  # type: ignore[union-attr]


def test_a_plus_refspec_is_force() -> None:
    for spec in ("+main", "refs/heads/main:+refs/heads/main", "+HEAD:feature"):
        assert "--force" in split_args("git", ("push", "origin", spec))[0], spec
    assert "--force" not in split_args("git", ("push", "origin", "main"))[0]
