"""Planting what runs later, unseen, is denied; looking at those places stays free.

A cron or ``at`` job, a systemd timer or enabled unit, lingering, an authorized key, a git
hook or a git setting whose only use is to run a program, and the start-up files of
shells, editors, terminals and REPLs all run after the session without anyone reading
them. Hook managers and lifecycle scripts are asked: a person may want them.
"""

from __future__ import annotations

import pytest

from .conftest import Judge

DENIED = {
    "at -f tools/report.sh tomorrow": "cron-and-at",
    "batch < tools/nightly.sh": "cron-and-at",
    "systemd-run --user --on-calendar=daily ./scripts/sync.sh": "systemd-timer",
    "systemctl --user enable --now sync.timer": "service-enable-plant",
    "systemctl --user link ./deploy/agent.service": "service-enable-plant",
    "launchctl bootstrap gui/501 deploy/x.plist": "service-enable-plant",
    "loginctl enable-linger": "persist-linger",
    "loginctl enable-linger dev": "persist-linger",
    "at now + 1 minute": "cron-and-at",
    "crontab -e": "cron-and-at",
    "scrontab tools/nightly.cron": "crontab",
    "scrontab -e": "cron-and-at",
    "systemctl enable evil.service": "service-enable-plant",
    "systemd-run --on-active=1h ./job.sh": "systemd-timer",
    "echo x > .git/hooks/pre-commit": "git-hook-plant",
    "ssh-copy-id -i ci.pub build@box": "ssh-authorize-key",
    "cp ci/pre-push .git/hooks/pre-push": "git-hook-plant",
    "ln -sf ../../ci/commit-msg .git/hooks/commit-msg": "git-hook-plant",
    "chmod +x .git/hooks/post-merge": "git-hook-plant",
    "cp x.sh .git/modules/vendor/hooks/pre-commit": "git-hook-plant",
    "git config core.hooksPath tools/hooks": "git-config-plant",
    "git config --glo core.hookspath ~/hooks": "git-config-plant",
    "git config --global core.fsmonitor ~/bin/fsm": "git-config-plant",
    "git config --global init.templateDir ~/.tmpl": "git-config-plant",
    "git config --global protocol.ext.allow always": "git-config-plant",
    "echo 'alias ls=x' >> ~/.bash_aliases": "startup-files",
    "printf 'run-shell x' >> ~/.tmux.conf": "startup-files",
    "cp tools/a.lua ~/.config/nvim/plugin/": "startup-files",
    "cp tools/boot.py ~/.ipython/profile_default/startup/": "startup-files",
    "echo 'LD_PRELOAD=x.so' >> ~/.ssh/environment": "startup-files",
    "cp t.py /usr/lib/python3/dist-packages/sitecustomize.py": "python-startup-plant",
}


@pytest.mark.parametrize(("command", "rule"), DENIED.items())
def test_planting_what_runs_later_is_denied(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("deny", rule)


def test_a_file_tool_planting_a_hook_or_a_start_up_file_is_denied(verdict: Judge) -> None:
    assert verdict("/home/ada-guard-test/src/calc/.git/hooks/pre-push", tool="write_file").rule == (
        "git-hook-plant"
    )
    assert verdict("/home/ada-guard-test/.vimrc", tool="write_file").rule == "startup-files"


ASKED = {
    "pre-commit install --hook-type pre-push": "git-hook-installer",
    "npx husky init": "git-hook-installer-npx",
    "npm pkg set scripts.prepare='node tools/boot.js'": "package-lifecycle-script",
    "printf x > node_modules/.bin/git": "node-bin-shadow",
    "systemctl restart app.service": "systemd-enable",
    "systemctl --user mask app.service": "systemd-user-change",
}


@pytest.mark.parametrize(("command", "rule"), ASKED.items())
def test_what_a_person_may_want_later_is_asked(verdict: Judge, command: str, rule: str) -> None:
    result = verdict(command)
    assert (result.decision, result.rule) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    ["crontab -l", "scrontab -l", "at -l", "systemctl --user status",
     "systemctl --user list-timers --all",
     "cat .git/hooks/pre-commit", "ls -la .git/hooks/", "git config --get core.hooksPath",
     "grep -n alias ~/.bash_aliases", "cat ~/.vimrc", "pre-commit run --all-files",
     "npm pkg set scripts.test='vitest run'", "node node_modules/.bin/jest --ci"],
)  # fmt: skip
def test_looking_at_those_places_stays_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision in (None, "allow")


@pytest.mark.parametrize("command", ["bash .git/hooks/pre-commit", "tmux source-file ~/.tmux.conf"])
def test_running_such_a_file_is_not_taken_for_planting_it(verdict: Judge, command: str) -> None:
    assert verdict(command).decision != "deny"


def test_everyday_git_settings_that_run_programs_stay_asked(verdict: Judge) -> None:
    everyday = ("git config --global core.editor 'code --wait'",
                "git config alias.lg '!git log'", "git config core.fsmonitor true")  # fmt: skip
    for command in everyday:
        assert verdict(command).decision != "deny", command


def test_what_a_planted_job_or_setting_runs_is_judged_too(verdict: Judge) -> None:
    job = verdict("echo 'rm -f .claude/settings.json' | at now + 2 minutes")
    monitor = verdict("git config core.fsmonitor 'rm -rf ~'")
    assert "self-protect-hook-settings" in {p.rule for p in job.pieces}
    assert "rm-root-or-home" in {p.rule for p in monitor.pieces}
