"""git config reads that print a secret are never granted: a key whose name says it holds
one, and the forms that print many keys' values at once (``-l``, ``--get-regexp``,
``--get-urlmatch``), where ``http.<url>.extraheader`` carries an Authorization header."""

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "git config --get-regexp 'http\\..*\\.extraheader'",
        "git config -l",
        "git config --list --show-origin",
        "git config list",
        "git config get-regexp '^http'",
        "git config --get-urlmatch http https://github.com",
        "git config --get http.https://github.com/.extraheader",
        "git config github.token",
        "git config --global --get user.password",
    ],
)
def test_a_config_read_that_can_print_a_secret_is_not_granted(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision != "allow", (command, judged)


@pytest.mark.parametrize(
    "command", ["git config user.name", "git config --get core.editor", "git config -l --name-only"]
)
def test_a_config_read_of_plain_settings_is_granted(verdict: Judge, command: str) -> None:
    assert verdict(command).decision == "allow", command


@pytest.mark.parametrize(
    "command",
    [
        "git config --global --get github.token",
        "git config github.token",
        "git config --get user.password",
        "git config --get-regexp 'http\\..*\\.extraheader'",
        "git config get --all http.https://github.com/.extraHeader",
    ],
)
def test_a_config_read_of_a_key_named_for_a_secret_is_denied(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("deny", "credential-print-git-config"), command


@pytest.mark.parametrize(
    "command",
    [
        "git config --name-only --get-regexp token",
        "git config --unset github.token",
        "git config unset --global github.token",
        "git log --grep=token",
    ],
)
def test_names_and_unsetting_print_no_secret(verdict: Judge, command: str) -> None:
    assert verdict(command).decision != "deny", command
