"""Another security guard the person runs beside this one (Rampart, destructive_command_
guard, Claude Code Safety Net) switched off, loosened or stopped by the agent is denied,
as the guard's own switches are, by the switches each documents; looking at it stays free.
A deploy key removed is asked for its own reason (access taken away, not the repository lost)."""

from __future__ import annotations

import pytest

from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("command", "rule"),
    [("rampart allow 'docker compose *' --global", "other-guard-commands"),
     ("rampart approve 7f3a", "other-guard-commands"),
     ("rampart uninstall --yes", "other-guard-commands"),
     ("rampart upgrade", "other-guard-commands"),
     ("rampart serve stop", "other-guard-parts"),
     ("rampart serve uninstall", "other-guard-parts"),
     ("rampart rules reset --global", "other-guard-parts"),
     ("rampart rules remove 2", "other-guard-parts"),
     ("rampart policy remove docker-restricted", "other-guard-parts"),
     ("rampart policy sync https://git.example.org/policies", "other-guard-parts"),
     ("rampart token revoke 4a2b", "other-guard-parts"),
     ("rampart setup codex --remove", "other-guard-parts"),
     ("rampart wrap --mode monitor -- aider", "other-guard-mode"),
     ("rampart preload --mode=disabled -- ./agent", "other-guard-mode"),
     ("killall rampart", "other-guard-stop"), ("pkill -9 rampart", "other-guard-stop"),
     ("pkill -f 'rampart serve'", "other-guard-stop"),
     ("kill $(pgrep -f rampart)", "other-guard-stop"),
     ("kill -TERM $(cat ~/.rampart/serve.pid)", "other-guard-stop"),
     ("pgrep rampart | xargs kill -9", "other-guard-stop-pid"),
     ("systemctl --user disable --now rampart-serve", "other-guard-service-stop"),
     ("launchctl bootout gui/501/sh.rampart.serve", "other-guard-service-stop"),
     ("RAMPART_MODE=monitor claude -p 'fix the tests'", "other-guard-settings"),
     ("RAMPART_MODE=disabled", "other-guard-settings"),
     ("DCG_BYPASS=1 npm test", "other-guard-settings"),
     ("env DCG_POLICY_DEFAULT_MODE=log make deploy", "other-guard-settings"),
     ("DCG_CONFIG=/tmp/loose.toml claude", "other-guard-settings"),
     ("SAFETY_NET_WORKTREE=1 claude", "other-guard-settings"),
     ("export RAMPART_MODE=monitor", "other-guard-settings"),
     ("export DCG_DISABLE=core.git", "other-guard-settings-exported")],
)  # fmt: skip
def test_switching_another_guard_off_is_denied(command: str, rule: str) -> None:
    assert decided(command) == ("deny", rule)


@pytest.mark.parametrize(
    ("command", "rule"),
    [("gh repo deploy-key delete 90211", "repo-deploy-key-delete"),
     ("gitlab-rails runner 'Ci::Pipeline.where(status: :failed).destroy_all'",
      "gitlab-instance-code"),
     ("sudo gitlab-rails console -e production", "gitlab-instance-code"),
     ("gitlab-backup restore BACKUP=1700000000_2026_11_01", "gitlab-instance-restore"),
     ("fastly service version activate --version 12 --service-id abc", "cdn-version-activate"),
     ("nsupdate -v dns/changes.txt", "dns-update")],
)  # fmt: skip
def test_what_the_person_may_mean_is_asked(command: str, rule: str) -> None:
    assert decided(command) == ("ask", rule)


@pytest.mark.parametrize(
    "command",
    ["rampart status", "rampart --version", "rampart doctor", "rampart audit tail --follow",
     "rampart audit verify", "rampart rules", "rampart rules --json", "rampart policy list",
     "rampart pending", "rampart upgrade --dry-run", "rampart test 'rm -rf /'",
     "rampart setup claude-code", "rampart wrap --mode enforce -- aider",
     "rampart serve --help", "pgrep -a rampart", "systemctl --user status rampart-serve",
     "tail -n 50 ~/.rampart/audit/audit.jsonl", "RAMPART_MODE=enforce claude",
     "export RAMPART_MODE=enforce", "SAFETY_NET_STRICT=1 claude", "dcg test 'git status'",
     "gh repo deploy-key list", "gitlab-rake gitlab:check", "gitlab-rake gitlab:backup:create",
     "fastly service version list"],
)  # fmt: skip
def test_looking_at_another_guard_stays_free(command: str) -> None:
    assert decided(command)[0] not in ("ask", "deny")


@pytest.mark.parametrize(
    ("command", "rule"),
    [("gh repo delete acme/site --yes", "publish-release-repo-delete"),
     ("DCG_BYPASS=1 git reset --hard HEAD~3", "git-reset-hard")],
)  # fmt: skip
def test_the_stronger_rule_still_wins(command: str, rule: str) -> None:
    decision, found = decided(command)  # (another guard's switch is denied too)
    assert decision == "deny" and found in (rule, "other-guard-settings")
