"""An alias is the command it becomes: the shell's (``alias ll='ls -la'; ll src`` is
``ls -la src``) and git's (``git config alias.lg 'log --graph'`` sets ``git lg`` to
``git log --graph``). Free when that command is free, stopped when it is stopped; a value
the guard cannot read (made at run time, a shell command after ``!``, git options that
run code or move git elsewhere) stays asked."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.splitargs import split_args
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [("alias ll='ls -la'; ll src", None, None),
     ("alias gs='git status --short'; gs", None, None),  # the alias itself: no grant
     ("alias x='git reset --hard'; x", "deny", "git-reset-hard"),
     ("alias b='a'; alias a='git reset --hard'; b", "deny", "git-reset-hard"),
     ("alias c='cat'; c ~/.ssh/id_rsa", "deny", "credential-read"),
     ("alias ll='ls -la'; ll > ~/.bashrc", "deny", "persistence-files"),
     ("alias ll=\"$CMD\"; ll", "ask", "alias-expansion"),
     ("alias s='sudo '; s ls", "ask", None),
     ("shopt -s expand_aliases; alias ll='ls -la'; ll src", "ask", "alias-expansion-on")],
)  # fmt: skip
def test_a_shell_alias_is_judged_as_its_expansion(
    verdict: Judge, command: str, decision: str | None, rule: str | None
) -> None:
    found = verdict(command)
    assert found.decision == decision, found
    if rule is not None:
        assert found.rule == rule


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [("hash -p /bin/rm ls; ls -rf ~", "deny", "rm-root-or-home"),
     ("hash -p /usr/bin/rm ls && ls -rf ~/", "deny", "rm-root-or-home"),
     ("hash -p /usr/bin/git st; st reset --hard", "deny", "git-reset-hard"),
     ("hash -p \"$X\" ls; ls -la", "ask", "alias-expansion"),  # a target known at run time
     ("hash -r; ls -la", None, None)],
)  # fmt: skip
def test_a_name_hashed_to_another_program_runs_that_program(
    verdict: Judge, command: str, decision: str | None, rule: str | None
) -> None:
    found = verdict(command)
    assert found.decision == decision or (decision is None and found.rule is None), found
    if rule is not None:
        assert found.rule == rule or any(p.rule == rule for p in found.pieces), found


def test_hash_with_no_name_binds_none(verdict: Judge) -> None:
    found = verdict("hash -p /bin/rm; ls -la")  # (hash -p itself is judged as before)
    assert [p.rule for p in found.pieces if p.program == "ls"] == ["read-only-commands"]


def test_an_alias_is_never_granted_as_itself(verdict: Judge) -> None:
    found = verdict("alias gs='git status --short'; gs")
    assert all(p.decision != "allow" for p in found.pieces if p.text.startswith("gs"))


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [('git config alias.lg "log --oneline --graph"', None, None),
     ("git config --global alias.co checkout", None, None),
     ("git config alias.sync 'reset --hard'", "deny", "git-reset-hard"),
     ("git config alias.m '!make'", "ask", "git-config-alias-runs-code"),
     ("git config ALIAS.m '!make'", "ask", "git-config-alias-runs-code"),
     ("git config alias.p '-c core.pager=less log'", "ask", "git-config-alias-runs-code"),
     ("git config alias.g '--git-dir=/tmp/x log'", "ask", "git-config-alias-runs-code"),
     ("git config alias.e '--exec-path=/tmp log'", "ask", "git-config-alias-runs-code"),
     ("git config core.pager 'less -R'", "ask", "git-config-run-code")],
)  # fmt: skip
def test_a_git_alias_is_judged_as_the_git_command_it_becomes(
    verdict: Judge, command: str, decision: str | None, rule: str | None
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == (decision, rule)


def test_git_config_stops_reading_options_at_its_first_operand() -> None:
    flags, operands, sub, unknown = split_args("git", ("config", "alias.q", "--global"))
    assert (sub, "--global" in flags, unknown) == ("config", False, False)
    assert operands == ("alias.q", "--global")
