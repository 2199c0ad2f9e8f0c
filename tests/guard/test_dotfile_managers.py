"""Dotfile managers: ``yadm ARGS`` and ``chezmoi git -- ARGS`` are git on the home folder's
dotfiles (`guard/launchers.py`), so git's rules hold for them (a force push asked, a hard
reset denied), a new remote for them is asked; yadm clone (a repository checked out over
the home folder) and chezmoi purge are denied; chezmoi --force, Home Manager's
generations removed and a plugin from a git URL are asked; chezmoi's age identity is a
credential. Looking at them and applying without --force stay as they were."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.launchers import launched
from amplifier_hooks.guard.words import Word

from .conftest import Judge


def _words(line: str) -> tuple[Word, ...]:
    return tuple(Word(w, False) for w in line.split())


@pytest.mark.parametrize(
    ("program", "line", "runs"),
    [
        ("yadm", "push -f", "git push -f"),
        ("yadm", "-Y /home/dev/.config/yadm reset --hard", "git reset --hard"),
        ("yadm", "gitconfig --list", "git config --list"),
        ("yadm", "enter rm -rf /tmp/x", "rm -rf /tmp/x"),
        ("chezmoi", "git -- push --force", "git push --force"),
        ("chezmoi", "-S /tmp/dots git status", "git status"),
    ],
)
def test_yadm_and_chezmoi_git_run_git(program: str, line: str, runs: str) -> None:
    found = launched(program, _words(line))
    assert found is not None
    assert " ".join(w.text for w in found.words) == runs


@pytest.mark.parametrize(
    ("program", "line"),
    [("yadm", "clone https://x.test/d.git"), ("yadm", "bootstrap"), ("yadm", "enter"),
     ("chezmoi", "apply --force"), ("chezmoi", "diff"), ("chezmoi", "--help")],
)  # fmt: skip
def test_their_own_commands_are_theirs(program: str, line: str) -> None:
    assert launched(program, _words(line)) is None


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        ("yadm reset --hard HEAD~5", "deny", "git-reset-hard"),
        ("yadm push -f", "ask", "git-force-push"),
        ("yadm remote set-url origin https://git.example.com/d.git && yadm push",
         "ask", "dotfiles-remote-changed"),
        ("chezmoi git -- remote add backup git@example.com:d.git", "ask",
         "dotfiles-remote-changed"),
        ("chezmoi git -- push --force-with-lease origin HEAD", "ask",
         "git-force-push-unknown-branch"),
        ("chezmoi purge --force", "deny", "dotfiles-source-purged"),
        ("chezmoi apply --force", "ask", "dotfiles-applied-over-changes"),
        ("chezmoi --force update", "ask", "dotfiles-applied-over-changes"),
        ("home-manager uninstall", "ask", "home-manager-generations-lost"),
        ("home-manager expire-generations '-0 days'", "ask", "home-manager-generations-lost"),
        ("yadm clone --bootstrap https://github.com/x/dots.git", "deny",
         "dotfiles-fetched-applied-yadm"),
        ("yadm clone https://github.com/x/dots.git", "deny", "dotfiles-fetched-applied-yadm"),
        ("yadm bootstrap", "ask", "dotfiles-bootstrap-run"),
        ("asdf plugin add foo https://github.com/x/asdf-foo.git", "ask", "install-from-url-plugin"),
        ("asdf plugin-add foo https://github.com/x/asdf-foo.git", "ask", "install-from-url-plugin"),
        ("mise plugins install foo https://github.com/x/mise-foo.git", "ask",
         "install-from-url-plugin"),
        ("cat ~/.config/chezmoi/key.txt", "deny", "credential-read"),
    ],
)  # fmt: skip
def test_dotfile_managers_risky_calls(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == (decision, rule), (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "yadm status",
        "yadm diff",
        "yadm remote -v",
        "yadm add ~/.bashrc",
        "chezmoi diff",
        "chezmoi apply",
        "chezmoi git -- status",
        "chezmoi init https://github.com/x/dots.git",
        "home-manager switch",
        "home-manager generations",
        "asdf plugin add nodejs",
        "asdf install nodejs 20.11.0",
        "cat ~/.config/chezmoi/chezmoi.toml",
    ],
)
def test_everyday_dotfile_work_is_not_stopped(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision in (None, "allow"), (command, judged)


def test_yadm_is_never_granted(verdict: Judge) -> None:
    """git status is granted; run by yadm on the home folder, it is left to the host."""
    assert verdict("git status").decision == "allow"
    assert verdict("yadm status").decision is None
