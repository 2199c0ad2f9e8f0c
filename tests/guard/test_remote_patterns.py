"""A branch on the remote is the same branch however the call names it: a pattern
refspec (``+refs/heads/*:refs/heads/*``) pushes every branch it matches, the protected
ones among them, and GitHub's API deletes or force-moves a branch as ``git push`` does."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.remote import pattern_pushes
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [("git push origin '+refs/heads/*:refs/heads/*'", "deny", "git-force-push-protected"),
     ("git push --force origin 'refs/heads/rel*:refs/heads/rel*'", "deny",
      "git-force-push-protected"),
     ("git push origin 'refs/heads/*:refs/heads/*'", "ask", "git-push-protected"),
     ("git push --force origin 'refs/heads/feature/*:refs/heads/feature/*'", "ask",
      "git-force-push")],
)  # fmt: skip
def test_a_pattern_refspec_pushes_the_protected_branches_it_matches(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


def test_only_a_pattern_is_read_as_one() -> None:
    assert pattern_pushes(("main", "release*"), ("*",))
    assert pattern_pushes(("main", "release*"), ("rel*",))
    assert not pattern_pushes(("main", "release*"), ("feature/*", "main-old"))
    assert not pattern_pushes(("(unknown)",), ("*",))


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [("gh api -X DELETE repos/acme/app/git/refs/heads/main", "deny", "github-api-protected-ref"),
     ("gh api --method DELETE /repos/acme/app/git/refs/heads/master", "deny",
      "github-api-protected-ref"),
     ("gh api -X PATCH repos/acme/app/git/refs/heads/main -f sha=3f2a1c9 -F force=true", "deny",
      "github-api-force-protected-ref"),
     ("gh api -X DELETE repos/acme/app/git/refs/heads/feature/x", "ask", "github-api-delete")],
)  # fmt: skip
def test_github_api_calls_on_a_protected_branch_are_denied(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


def test_reading_a_branch_through_the_api_is_not_stopped(verdict: Judge) -> None:
    assert verdict("gh api repos/acme/app/git/refs/heads/main").decision not in ("deny", "ask")
