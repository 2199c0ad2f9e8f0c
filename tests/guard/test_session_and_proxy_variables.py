"""Session keys in the environment (``BW_SESSION``, ``OP_SESSION_<account>``, a
``*_SESSION_KEY``) open an unlocked vault: printed, they are denied as a token is. The
desktop's session variables (``DESKTOP_SESSION``, ``XDG_SESSION_TYPE``), whether a key is
set (``${BW_SESSION:+set}``), the proxy variables (docs/guard.md: where we think the blind
corpora are wrong) and ``$HOME`` stay free."""

from __future__ import annotations

import pytest

from .conftest import Judge


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        ('echo "$BW_SESSION"', "deny", "secret-session-variable-print"),
        ("echo ${BW_SESSION}", "deny", "secret-session-variable-print"),
        ('echo "session: $BW_SESSION."', "deny", "secret-session-variable-print"),
        ('printf "%s" "$OP_SESSION_my"', "deny", "secret-session-variable-print"),
        ("echo $FLASK_SESSION_KEY", "deny", "secret-session-variable-print"),
        ("printenv BW_SESSION", "deny", "secret-session-variable-name-print"),
        ("echo $GITHUB_TOKEN", "deny", "secret-variable-print"),
    ],
)
def test_session_keys_printed(verdict: Judge, command: str, decision: str, rule: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == (decision, rule), (command, judged)


@pytest.mark.parametrize(
    "command",
    [
        "echo $XDG_SESSION_TYPE",
        "echo $XDG_SESSION_ID",
        "echo $DESKTOP_SESSION",
        "printenv DESKTOP_SESSION",
        "echo $DBUS_SESSION_BUS_ADDRESS",
        "echo $NO_PROXY",
        "echo $HTTPS_PROXY",
        'echo "${BW_SESSION:+set}"',
        "echo $HOME",
        'echo "BW_SESSION is set"',
    ],
)
def test_the_desktops_session_a_keys_presence_and_proxies_stay_free(
    verdict: Judge, command: str
) -> None:
    judged = verdict(command)
    assert judged.decision in (None, "allow"), (command, judged)


def test_a_session_key_used_not_printed_is_not_denied(verdict: Judge) -> None:
    assert verdict('bw list folders --session "$BW_SESSION"').decision != "deny"
