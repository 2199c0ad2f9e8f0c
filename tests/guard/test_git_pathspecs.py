"""git commands that take pathspecs and change the worktree: a pattern (``'*.json'``) or a
magic pathspec (``:/``) is matched by git in every folder, so it removes files nobody
named, an agent's hook settings among them; a stash of an agent's folder takes its files
out of the worktree; ``git apply --include`` names where the patch may write."""

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "git rm '*.json'",
        "git rm -r :/",
        "git rm 'src/a?.py'",
        "git rm -r ':(top)'",
        "git stash push -u -- '*.json'",
        "git stash push --include-untracked -- '**/settings*.json'",
    ],
)
def test_a_pattern_that_git_deletes_by_is_never_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision != "allow", (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "git stash push -u -- .claude",
        "git stash push --include-untracked .codex",
        "git stash -a -- .claude",
        "git stash push -- .claude",
        "git stash push -m wip -- .gemini",
    ],
)
def test_stashing_an_agent_folder_is_denied(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("deny", "self-protect-hook-folders"), command


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("git apply --include='.claude/*' /tmp/upstream.patch", "self-protect-hook-folders"),
        ("git apply --include=.codex/hooks.json /tmp/u.patch", "self-protect-hook-settings"),
    ],
)
def test_a_patch_kept_to_an_agent_folder_is_denied(verdict: Judge, command: str, rule: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("deny", rule), command


@pytest.mark.parametrize(
    "command",
    [
        "git rm src/a.py",
        "git rm -r --cached '*.log'",
        "git rm -n '*.json'",
        "git stash push -u -- src",
        "git stash push -m wip src/a.py",
        "git stash",
        "git stash push -- .claude/commands",
        "git stash list && git stash show -p stash@{0} -- .claude",
    ],
)
def test_named_files_and_index_only_forms_stay_granted(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "allow", command


def test_a_patch_kept_to_project_files_is_not_stopped(verdict: Judge) -> None:
    judged = verdict("git apply --include='src/*' /tmp/u.patch")
    assert judged.decision not in ("deny", "ask"), judged
