"""Writes outside the workspace that plant code or settings that run later: a path computed
by a command whose output is a known place (`computedpaths`), a loop that links one hook a
round (`loops`), ``cp -T`` into the home folder, the package managers' own settings
(``package-source-files``, ``package-source-plant``), start-up files in a dotfiles folder
and ``stow`` into the home folder, an editor's user settings, programs put in a system
folder on the PATH. Reading any of them, and the project's own settings, stay as they are."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.guard import Places, Policy, judge, load_pack
from amplifier_hooks.guard.computedpaths import computed_heads

PLACES = Places.of("/home/dev/project", home="/home/dev")
PACK: Policy = load_pack()


def _bash(command: str) -> Any:
    return judge({"tool_name": "bash", "tool_input": {"command": command}}, PACK, PLACES)


def _write(path: str, content: str) -> Any:
    data = {"tool_name": "write_file", "tool_input": {"file_path": path, "content": content}}
    return judge(data, PACK, PLACES)


def _read(path: str) -> Any:
    return judge({"tool_name": "read_file", "tool_input": {"file_path": path}}, PACK, PLACES)


@pytest.mark.parametrize(
    ("raw", "heads"),
    [("$(git rev-parse --git-path hooks)/pre-push", (".git/hooks/pre-push",)),
     ("$(git rev-parse --git-path=hooks)/x", (".git/hooks/x",)),
     ("$(git rev-parse --git-common-dir)/hooks/x", (".git/hooks/x",)),
     ("$(git -C ../other rev-parse --git-dir)", ("../other/.git",)),
     ("$(git -C a -C /srv/r rev-parse --absolute-git-dir)/config", ("/srv/r/.git/config",)),
     ("$(getent passwd dev | cut -d: -f6)/.bashrc", ("~dev/.bashrc",)),
     ("$(getent passwd dev | cut -d : -f 6)/.profile", ("~dev/.profile",)),
     ("$(python3 -m site --user-site)/x.pth", ("~/.local/lib/python3/site-packages/x.pth",))],
)  # fmt: skip
def test_a_command_whose_output_is_a_known_place_names_it(raw: str, heads: tuple[str, ...]) -> None:
    assert computed_heads(raw) == heads


@pytest.mark.parametrize(
    "raw",
    ["$(git rev-parse --git-path ../x)/y", "$(git rev-parse --git-path /etc)/y",
     "$(git rev-parse --show-toplevel --git-dir)", "$(git log -1)/x", "$(git rev-parse HEAD)x",
     "$(getent passwd ../x | cut -d: -f6)", "$(getent passwd dev | cut -d: -f1)",
     "$(getent passwd $U | cut -d: -f6)", "$(cat f; git rev-parse --git-dir)", "plain/path",
     "$(git rev-parse --git-path 'hooks)/x"],
)  # fmt: skip
def test_any_other_command_names_no_place(raw: str) -> None:
    assert computed_heads(raw) == ()


@pytest.mark.parametrize(
    ("command", "rule"),
    [('echo x >> "$(git rev-parse --git-path hooks)/commit-msg"', "git-hook-plant"),
     ('cp s "$(git -C ../wt rev-parse --git-common-dir)/hooks/pre-push"', "git-hook-plant"),
     ('echo x >> "$(getent passwd dev | cut -d: -f6)/.bashrc"', "persistence-files"),
     ("for h in pre-commit pre-push; do ln -sf ../../githooks/$h .git/hooks/$h; done",
      "git-hook-plant"),
     ('cp -rT dotfiles/ "$HOME"/', "replace-home-or-root"),
     ("pip config set global.index-url http://mirror.example/simple", "package-source-plant"),
     ("npm config set registry http://10.0.0.7:4873/ --location=user", "package-source-plant"),
     ("go env -w GOPROXY=http://203.0.113.8:3000,direct", "package-source-plant"),
     ("npm config set node-options '--require ./x.js'", "package-source-plant"),
     ("printf '[build]\\nrustc-wrapper = \"w\"\\n' >> ~/.cargo/config.toml",
      "package-source-files"),
     ("echo ':sources: [https://gems.example/]' >> ~/.gemrc", "package-source-files"),
     ("stow -t ~ -d dotfiles bash zsh", "dotfiles-link-home"),
     ("cd ~/dotfiles && stow -t ~ bash", "dotfiles-link-home"),
     ("echo 'source x' >> ~/dotfiles/zsh/.zshrc", "dotfiles-startup-files"),
     ("git config --global --add safe.directory '*'", "git-safe-directory-any"),
     ("git config core.sshCommand 'ssh -o ProxyCommand=\"nc relay.example 22\"'",
      "git-config-plant-script"),
     ("sudo ln -sf /home/dev/project/tools/cc-shim /usr/bin/cc", "system-program-replaced"),
     ("jq . ~/.config/Code/User/settings.json | sponge ~/.config/Code/User/settings.json",
      "editor-user-settings")],
)  # fmt: skip
def test_planting_outside_the_workspace_is_denied(command: str, rule: str) -> None:
    verdict = _bash(command)
    assert (verdict.decision, verdict.rule) == ("deny", rule)


@pytest.mark.parametrize(
    ("path", "rule"),
    [("/home/dev/.config/pip/pip.conf", "package-source-files"),
     ("/home/dev/.condarc", "package-source-files"),
     ("/home/dev/miniconda3/envs/ml/etc/conda/activate.d/x.sh", "package-source-files"),
     ("/home/dev/.config/sccache/config", "package-source-files"),
     ("/home/dev/.bash_env", "startup-files"),
     ("/home/dev/dotfiles/bash/.bash_aliases", "dotfiles-startup-files"),
     ("/home/dev/dotfiles/ssh/.ssh/config", "dotfiles-startup-files"),
     ("/home/dev/dotfiles/systemd/.config/systemd/user/x.service", "dotfiles-startup-files"),
     ("/home/dev/Library/Application Support/Code/User/settings.json", "editor-user-settings")],
)  # fmt: skip
def test_writing_a_file_that_runs_or_redirects_later_is_denied(path: str, rule: str) -> None:
    verdict = _write(path, "x = 1\n")
    assert (verdict.decision, verdict.rule) == ("deny", rule)


@pytest.mark.parametrize(
    "command",
    ["pip config list", "npm config get registry", "go env GOPROXY", "cat ~/.config/pip/pip.conf",
     "stow -n -v -t ~ -d dotfiles bash", "bash -n ~/dotfiles/bash/.bashrc",
     "chmod 600 ~/.ssh/config", "cat ~/.config/Code/User/settings.json",
     "diff -u ~/.bashrc dotfiles/bashrc", 'cat "$(git rev-parse --git-path hooks)/pre-commit"',
     "for f in a b; do cp src/$f.txt out/$f.txt; done"],
)  # fmt: skip
def test_reading_and_everyday_work_stay_free(command: str) -> None:
    assert _bash(command).decision not in ("deny", "ask")


@pytest.mark.parametrize(
    "path",
    ["/home/dev/.config/pip/pip.conf", "/home/dev/dotfiles/bash/.bashrc",
     "/home/dev/.config/Code/User/settings.json", "/home/dev/.cargo/config.toml"],
)  # fmt: skip
def test_reading_them_with_a_file_tool_is_free(path: str) -> None:
    assert _read(path).decision not in ("deny", "ask")


@pytest.mark.parametrize(
    "command",
    ["npm config set registry https://npm.example/ --location=project",
     "bundle config set --local mirror.https://rubygems.org https://gems.example",
     "sudo chsh -s /usr/bin/zsh dev", "gem sources --remove https://rubygems.org/"],
)  # fmt: skip
def test_the_projects_own_settings_and_naming_a_system_program_are_not_denied(
    command: str,
) -> None:
    assert _bash(command).decision != "deny"


def test_a_project_npmrc_with_a_registry_stays_asked() -> None:
    verdict = _write("/home/dev/project/.npmrc", "registry=https://npm.example/\n")
    assert verdict.decision == "ask"


@pytest.mark.parametrize(
    ("path", "rule"),
    [("/home/dev/.claude/projects/-home-dev-project/s.jsonl", "host-transcripts"),
     ("/home/dev/.codex/sessions/2026/11/30/rollout-1.jsonl", "host-transcripts"),
     ("/home/dev/.amplifier/bundles/default.md", "self-protect-hook-settings")],
)  # fmt: skip
def test_a_hosts_transcripts_and_the_persons_bundles_are_not_the_agents_to_write(
    path: str, rule: str
) -> None:
    verdict = _write(path, "{}\n")
    assert (verdict.decision, verdict.rule) == ("deny", rule)


@pytest.mark.parametrize(
    ("command", "decision"),
    [("fuser -k 8788/tcp", "deny"), ("fuser -k -n tcp 8788", "deny"),
     ("fuser -k 3000/tcp", None), ("fuser 8788/tcp", None),
     ("tail -n 5 ~/.claude/projects/-home-dev-project/s.jsonl", None)],
)  # fmt: skip
def test_the_approval_consoles_port_is_not_killed(command: str, decision: str | None) -> None:
    assert _bash(command).decision == decision
