"""A macOS workstation: keychain items printed or only looked up, Gatekeeper skipped by a
variable, an app's entitlements weakened, AppleScript run by an MCP server, privacy
permissions reset for one app or all, a literal password put in a release script."""

from __future__ import annotations

import pytest

from .conftest import decided, tool_decided


@pytest.mark.parametrize(
    ("command", "decision"),
    [("security find-generic-password -s acme -w", "deny"),
     ("security find-generic-password -gs acme", "deny"),
     ("security find-internet-password -s github.com -w", "deny"),
     ("security find-generic-password -s acme -a dev", None),
     ("security find-internet-password -s github.com", None)],
)  # fmt: skip
def test_a_keychain_item_is_printed_only_with_its_password_options(
    command: str, decision: str | None
) -> None:
    assert decided(command)[0] == decision


def test_gatekeeper_skipped_through_homebrew_s_variable_is_asked() -> None:
    assert decided('HOMEBREW_CASK_OPTS="--no-quarantine" brew install --cask x') == (
        "ask", "cask-no-quarantine-env")  # fmt: skip
    assert decided("brew install --cask firefox")[0] != "ask"


@pytest.mark.parametrize(
    ("old", "new", "asked"),
    [("<key>a</key><false/>",
      "<key>a</key><false/><key>com.apple.security.cs.disable-library-validation</key><true/>",
      True),
     ("<key>com.apple.security.app-sandbox</key><true/>",
      "<key>com.apple.security.app-sandbox</key><false/>", True),
     ("<key>com.apple.security.get-task-allow</key><false/>",
      "<key>com.apple.security.get-task-allow</key><true/>", True),
     ("<key>com.apple.security.network.client</key><false/>",
      "<key>com.apple.security.network.client</key><true/>", False)],
)  # fmt: skip
def test_an_entitlement_that_weakens_the_hardened_runtime_is_never_granted(
    old: str, new: str, asked: bool
) -> None:
    edit = {"file_path": "/home/dev/project/App/App.entitlements", "old_string": old,
            "new_string": new}  # fmt: skip
    found = tool_decided("Edit", edit)
    assert (found == ("ask", "protection-switched-off")) is asked
    if not asked:  # an entitlement names security: left to the host, never stopped
        assert found[0] not in ("ask", "deny")


def test_applescript_run_by_an_mcp_server_is_judged_as_osascript() -> None:
    script = 'do shell script "spctl --master-disable" with administrator privileges'
    found = tool_decided("mcp__macos_automator__execute_script",
                         {"language": "applescript", "script": script})  # fmt: skip
    assert found == ("deny", "macos-protection-off")
    quiet = tool_decided("mcp__applescript__run", {"code": 'display notification "done"'})
    assert quiet[0] is None


def test_privacy_permissions_reset_for_every_app_is_asked_and_for_one_app_is_not() -> None:
    assert decided("tccutil reset All") == ("ask", "privacy-permissions-reset")
    assert decided("tccutil reset Camera com.acme.AcmeDev")[0] is None


@pytest.mark.parametrize(
    ("new", "asked"),
    [('notarytool submit "$DMG" --apple-id a@b.io --password "abcd-efgh-ijkl-mnop"', True),
     ('notarytool submit "$DMG" --password "$NOTARY_PASSWORD"', False),
     ('notarytool submit "$DMG" --password "@keychain:AC_PASSWORD"', False)],
)  # fmt: skip
def test_a_literal_handed_to_a_secret_option_in_a_script_is_asked(new: str, asked: bool) -> None:
    old = 'notarytool submit "$DMG" --keychain-profile AC'
    edit = {"file_path": "/home/dev/project/scripts/release.sh", "old_string": old,
            "new_string": new}  # fmt: skip
    assert (tool_decided("Edit", edit) == ("ask", "secret-inlined")) is asked
