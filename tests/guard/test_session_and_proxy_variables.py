"""Session keys in the environment (``BW_SESSION``, ``OP_SESSION_<account>``, a
``*_SESSION_KEY``) open an unlocked vault: printed, they are denied as a token is; a
proxy's URL may carry its login: printed, it is asked. The desktop's session variables
(``DESKTOP_SESSION``, ``XDG_SESSION_TYPE``) and ``$HOME`` stay free."""

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
        ("echo $HTTPS_PROXY", "ask", "proxy-variable-print"),
        ('echo "${http_proxy}"', "ask", "proxy-variable-print"),
        ("printenv ALL_PROXY", "ask", "proxy-variable-name-print"),
        ("echo $GITHUB_TOKEN", "deny", "secret-variable-print"),
    ],
)
def test_session_keys_and_proxy_urls_printed(
    verdict: Judge, command: str, decision: str, rule: str
) -> None:
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
        "echo $HOME",
        'echo "BW_SESSION is set"',
    ],
)
def test_the_desktops_session_and_home_stay_free(verdict: Judge, command: str) -> None:
    judged = verdict(command)
    assert judged.decision in (None, "allow"), (command, judged)


def test_a_session_key_used_not_printed_is_not_denied(verdict: Judge) -> None:
    assert verdict('bw list folders --session "$BW_SESSION"').decision != "deny"
