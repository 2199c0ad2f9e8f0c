"""A git alias given or set on the command line is the command it names: ``git -c
alias.sync='reset --hard' sync`` is ``git reset --hard``, judged like it, and a setting
whose value git reads from a variable (``--config-env``) is only known when git runs."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.table.settings import setting_commands
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "rule"),
    [("git -c alias.sync='reset --hard' sync", "git-reset-hard"),
     ("git -c alias.p='push --force' p origin main", "git-force-push-protected"),
     ("git -c ALIAS.P='push --force' p origin main", "git-force-push-protected"),
     ("git config alias.up 'push -f origin main' && git up", "git-force-push-protected"),
     ("git config --global alias.wipe 'clean -fdx'", "git-clean"),
     ("git -c 'alias.x=!rm -rf ~' x", "rm-root-or-home"),
     ("git config --fil .git/config core.sshCommand 'rm -rf ~'", "rm-root-or-home"),
     # a monitor command is planting whatever it runs (its value is judged too: below)
     ("git config --fil .git/config core.fsmonitor 'rm -rf ~'", "git-config-plant"),
     # settings git runs later: a submodule's `!` update, a remote's pack programs
     ("git config submodule.lib.update '!rm -rf ~'", "rm-root-or-home"),
     ("git -c 'submodule.lib.update=!rm -rf ~' submodule update", "rm-root-or-home"),
     ("git config remote.origin.uploadpack 'rm -rf ~'", "rm-root-or-home"),
     ("git config remote.origin.receivepack ./rp.sh", "git-config-plant-script")],
)  # fmt: skip
def test_an_alias_is_judged_as_the_git_command_it_names(
    verdict: Judge, command: str, rule: str
) -> None:
    found = verdict(command)
    assert (found.decision, found.rule) == ("deny", rule)


@pytest.mark.parametrize(
    ("command", "decision"),
    [("git config submodule.lib.update rebase", None),
     ("git config submodule.lib.update '!echo updated'", "ask"),
     ("git config remote.origin.uploadpack git-upload-pack", "ask"),
     ("git config --get remote.origin.uploadpack", "allow")],
)  # fmt: skip
def test_git_own_update_methods_are_free_and_a_command_is_asked(
    verdict: Judge, command: str, decision: str | None
) -> None:
    assert verdict(command).decision == decision


def test_the_alias_runs_with_the_words_after_it() -> None:
    assert setting_commands("git", ("-c", "alias.p=push --force", "p", "origin", "main")) == (
        "git push --force",
        "git push --force origin main",
    )
    assert setting_commands("git", ("-c", "alias.st=status", "log")) == ("git status",)


@pytest.mark.parametrize(
    "command",
    ["git --config-env=alias.wipe=WIPE wipe", "git --config-env alias.wipe=WIPE wipe",
     "git --config-env=core.pager=PAGER log"],
)  # fmt: skip
def test_a_setting_read_from_a_variable_is_not_known_and_is_asked(
    verdict: Judge, command: str
) -> None:
    assert verdict(command).decision == "ask"


def test_an_alias_that_cannot_be_split_runs_nothing_the_guard_adds() -> None:
    assert setting_commands("git", ("-c", "alias.x=log 'unclosed", "x")) == ("git log 'unclosed",)


PAGER = "less -R"
"""A command the settings below name (the same whatever spelling sets it)."""


@pytest.mark.parametrize(
    "args",
    [("config", "core.pager", PAGER), ("config", "--fil", ".git/config", "core.pager", PAGER),
     ("config", "--file=.git/config", "core.pager", PAGER),
     ("config", "-f", ".git/config", "core.pager", PAGER),
     ("config", "-f.git/config", "core.pager", PAGER),
     ("config", "--ty", "bool", "core.pager", PAGER), ("config", "set", "core.pager", PAGER),
     ("-C", "sub", "config", "--glob", "core.pager", PAGER),
     ("--git-dir", ".git", "-c", "core.pager=" + PAGER, "status"),
     ("-ccore.pager=" + PAGER, "status")],
)  # fmt: skip
def test_a_setting_is_read_as_git_reads_its_options(args: tuple[str, ...]) -> None:
    """``git config``'s options abbreviated (``--fil``, ``--ty``), attached or with ``=``,
    and git's own global options before it: the table reads them (`table.git`), so the
    value set is the command whatever the spelling (a list of valued options by name took
    ``.git/config`` for the key after ``--fil``)."""
    assert setting_commands("git", args) == (PAGER,), args


@pytest.mark.parametrize(
    ("args", "command"),
    [(("clone", "ext::sh -c touch% /tmp/x"), "sh -c 'touch /tmp/x'"),
     (("fetch", "ext::ssh -p 2222 host %S repo"), "ssh -p 2222 host git-upload-pack repo"),
     (("ls-remote", "ext::echo 100%% done %G/repo %Vhost"), "echo 100% done")],
)  # fmt: skip
def test_an_ext_remote_is_the_command_it_starts(args: tuple[str, ...], command: str) -> None:
    assert setting_commands("git", args) == (command,)


@pytest.mark.parametrize(
    ("command", "decision"),
    [("git clone 'ext::sh -c touch% /tmp/pwned'", "ask"),
     ("git -c protocol.ext.allow=always clone 'ext::sh -c touch% /tmp/pwned'", "ask"),
     ("git remote add evil 'ext::sh -c rm% -rf% ~'", "deny"),
     ("git clone https://github.com/x/ext.git", None)],
)  # fmt: skip
def test_an_ext_remote_is_asked_and_its_command_judged(
    verdict: Judge, command: str, decision: str | None
) -> None:
    assert verdict(command).decision == decision
