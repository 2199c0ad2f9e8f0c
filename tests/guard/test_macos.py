"""macOS's own programs and places: the looks of everyday development stay free (read in
full by `table.macos`), and what outlives the session, switches a protection off, deletes
backups or reaches the person's sessions is denied or asked by the pack's macOS rules,
whatever runs it (AppleScript's ``do shell script`` included: `applescript`)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.applescript import (
    applescript_commands,
    quiet_osascript_options,
    read_applescript,
)
from amplifier_hooks.guard.table import Does, read_call
from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    "command",
    [
        "mdls -name kMDItemVersion /Applications/Xcode.app",
        "mdls -raw -name kMDItemContentType build/App.app",
        "mdfind -onlyin . -name Package.swift",
        "mdutil -s /",
        "dscl . -read /Users/ada-guard-test UserShell",
        "dscl . -list /Users UniqueID",
        "hdiutil attach build/App.dmg -nobrowse && ls /Volumes/App && hdiutil detach /Volumes/App",
        "hdiutil info",
        "security cms -D -i build/App.app/embedded.provisionprofile | plutil -p - | grep Team",
        "tmutil listlocalsnapshots /",
        "tmutil status",
        "launchctl print gui/501/homebrew.mxcl.postgresql@16 | head -40",
        "launchctl list | grep homebrew",
        "plutil -p ~/Library/LaunchAgents/homebrew.mxcl.postgresql@16.plist",
        "plutil -lint App/Info.plist",
        "xattr -l build/App.app",
        "xattr -p com.apple.quarantine ~/Downloads/protoc-25.1-osx.zip",
        "diskutil apfs list",
        "arch -x86_64 /usr/local/bin/node --version",
        "ditto -c -k --keepParent build/App.app build/App.zip",
        'osascript -e \'display notification "212 tests passed" with title "App"\'',
        "osascript -e 'tell application \"Simulator\" to quit'",
        "rm -rf ~/Library/Developer/Xcode/DerivedData/App-abcdef",
        "rm -rf ~/Library/Caches/CocoaPods",
        "brew services restart postgresql@16",
        "brew install --cask visual-studio-code",
        "brew install homebrew/cask/firefox",
    ],
)
def test_a_macos_look_or_everyday_step_is_free(verdict: Judge, command: str) -> None:
    got = verdict(command)
    assert got.decision in (None, "allow"), (command, got)


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("launchctl submit -l com.x.poll -- ./scripts/poll.sh", "launchd-submit"),
        ("launchctl setenv DYLD_INSERT_LIBRARIES build/libtrace.dylib", "launchd-environment-code"),
        ("sudo defaults write com.apple.loginwindow LoginHook scripts/login.sh", "login-hook"),
        ("sudo brew services start nginx", "brew-services-root"),
        ("sudo spctl --master-disable", "macos-protection-off"),
        ("csrutil disable", "macos-protection-off"),
        ("sudo fdesetup disable", "macos-protection-off"),
        ("sudo /usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off",
         "macos-firewall-off"),
        ("defaults write com.apple.LaunchServices LSQuarantine -bool NO",
         "macos-protection-off-defaults"),
        ("defaults write com.apple.screensaver askForPassword -int 0",
         "macos-protection-off-defaults"),
        ("sudo nvram boot-args='amfi_get_out_of_my_way=1'", "macos-boot-args"),
        ("sudo xattr -rd com.apple.quarantine /Applications/*.app", "quarantine-strip-all"),
        ("xattr -cr ~/Downloads", "quarantine-strip-all"),
        ("sudo profiles install -path ./config/proxy.mobileconfig",
         "configuration-profile-install"),
        ("sqlite3 ~/Library/Application\\ Support/com.apple.TCC/TCC.db 'DELETE FROM access'",
         "privacy-database"),
        ("tmutil deletelocalsnapshots /", "time-machine-delete"),
        ("sudo tmutil delete -d /Volumes/TM -t 2026-11-01-120000", "time-machine-delete"),
        ("sudo asr restore --source base.dmg --target /Volumes/Data --erase", "disk-restore"),
        ("sudo kmutil load -p ~/Downloads/Sniffer.kext", "kernel-extension-load"),
        ("sudo sysadminctl -addUser helper -admin", "macos-account-admin"),
        ("sudo dscl . -append /Groups/admin GroupMembership ci", "macos-account-admin"),
        ("sudo systemsetup -setremotelogin on", "macos-remote-access-on"),
        ("aws-vault exec default -- env", "credential-print-aws-vault-env"),
        ("aws-vault export default", "credential-print-aws-vault"),
        ("git credential-osxkeychain get", "credential-print-git-helper"),
        ("sudo security authorizationdb write system.privilege.admin allow",
         "macos-admin-rights-open"),
        ("sudo security add-trusted-cert -d -r trustRoot mitm-ca.crt", "trusted-root-add"),
        ("sudo sysadminctl -screenLock off", "macos-login-protection-off"),
        ("sudo softwareupdate --schedule off", "software-update-off"),
        ("cat ~/Library/Application\\ Support/Vivaldi/Default/Cookies", "app-session-read"),
        ("echo 'command script import tools/x.py' >> ~/.lldbinit", "macos-startup-files"),
        ("strings ~/Library/Containers/com.apple.Safari/Data/Library/Cookies/Cookies.binarycookies",
         "app-session-read"),
        ("cat ~/Library/Application\\ Support/Arc/User\\ Data/Default/Cookies", "app-session-read"),
        ("osascript -e 'tell application \"Finder\" to empty trash'", "applescript-delete"),
        ("osascript -e 'display dialog \"Password:\" default answer \"\" with hidden answer'",
         "applescript-password-prompt"),
        ("osascript -e 'tell application \"Safari\" to do JavaScript \"document.cookie\" in "
         "document 1'", "applescript-browser-page"),
        ("osascript -e 'tell application \"System Events\" to make login item at end with "
         "properties {path:\"/Applications/X.app\"}'", "login-item-add"),
    ],
)  # fmt: skip
def test_a_macos_change_that_outlives_or_unprotects_is_denied(
    verdict: Judge, command: str, rule: str
) -> None:
    got = verdict(command)
    assert (got.decision, got.rule) == ("deny", rule), (command, got)


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("brew services start postgresql@16", "brew-services-start"),
        ("launchctl setenv EDITOR_THEME dark", "launchd-environment"),
        ("tccutil reset All", "privacy-permissions-reset"),
        ("brew install --cask --no-quarantine some-tool", "cask-no-quarantine"),
        ("defaults delete com.apple.dock", "macos-preferences-delete"),
        ("networksetup -setdnsservers Wi-Fi 203.0.113.53", "network-settings"),
        ("nvram SystemAudioVolume=%00", "macos-firmware-settings"),
        ("cat ~/Library/Mail/V10/INBOX.mbox/1.emlx", "private-content-read"),
        ("osascript tools/setup.scpt", "applescript-compiled"),
        ("brew tap someone/tools https://github.com/someone/homebrew-tools", "brew-from-url"),
        ("brew install --HEAD someuser/tap/nightly-tool", "brew-from-url"),
        ("pod trunk push MyKit.podspec", "publish-apple"),
        ("xcrun altool --upload-app -f build/App.ipa -t ios", "publish-apple"),
        ("launchctl bootout gui/501/com.apple.something", "launchd-job-change"),
    ],
)
def test_a_macos_change_a_person_should_see_is_asked(
    verdict: Judge, command: str, rule: str
) -> None:
    got = verdict(command)
    assert (got.decision, got.rule) == ("ask", rule), (command, got)


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("osascript -e 'do shell script \"rm -rf ~/src/calc\"'", "rm-workspace-root"),
        ("osascript -e 'do shell script \"spctl --master-disable\" with administrator "
         "privileges'", "macos-protection-off"),
        ("osascript -e 'set the clipboard to (do shell script \"security "
         "find-generic-password -s npm -w\")'", "credential-print-keychain"),
        ("osascript <<'AS'\ndo shell script \"rm -rf $HOME/Library/Keychains\"\nAS",
         "rm-under-home"),
        ("osascript -l JavaScript -e 'Application.currentApplication().doShellScript("
         "\"csrutil disable\")'", "macos-protection-off"),
        ("osascript -e 'tell application \"Terminal\" to do script \"rm -rf ~\"'",
         "rm-root-or-home"),
    ],
)  # fmt: skip
def test_applescript_shell_commands_are_judged(verdict: Judge, command: str, rule: str) -> None:
    got = verdict(command)
    assert (got.decision, got.rule) == ("deny", rule), (command, got)


def test_applescript_with_anything_else_stays_asked(verdict: Judge) -> None:
    for command in (
        "osascript -e 'tell application \"Simulator\" to quit' -e 'do shell script \"ls\"'",
        "osascript -l JavaScript -e 'Application(\"Simulator\").quit()'",
        'osascript -e \'tell application "System Events" to keystroke "q"\'',
        "osascript -e 'display notification \"x\"' notes.txt",
    ):
        got = verdict(command)
        assert (got.decision, got.rule) == ("ask", "inline-code"), (command, got)


def test_applescript_commands_are_read_as_the_shell_gets_them() -> None:
    code = (
        'do shell script "rm -rf \\"$HOME/x\\"" with administrator privileges\n'
        'tell application "Terminal" to do script "make test"\n'
        'do shell script "ls"'
    )
    assert applescript_commands(code) == ['sudo rm -rf "$HOME/x"', "ls", "make test"]
    assert applescript_commands("app.doShellScript('echo hi')") == ["echo hi"]
    assert applescript_commands('display dialog "do shell script"') == []


def test_only_showing_or_quitting_is_quiet_applescript() -> None:
    assert read_applescript('display notification "ok" with title "T" sound name "Glass"').quiet
    assert read_applescript('beep 2\ndelay 0.5\nquit application "Xcode"').quiet
    assert read_applescript('tell application id "com.apple.Music" to activate').quiet
    for code in ('display dialog "x"', 'tell application "Finder" to quit\nempty trash', ""):
        assert not read_applescript(code).parsed
    assert quiet_osascript_options(("-e", "beep", "-e", "beep"))
    assert not quiet_osascript_options(("-l", "JavaScript", "-e", "beep"))
    assert not quiet_osascript_options(("script.applescript",))


def test_the_table_reads_macos_looks_and_nothing_else() -> None:
    assert read_call("xattr", ("-p", "com.apple.quarantine", "a.zip")).acts == (
        (Does.READ, "a.zip"),
    )
    assert read_call("plutil", ("-p", "Info.plist")).acts == ((Does.READ, "Info.plist"),)
    for program, args in (
        ("plutil", ("-convert", "xml1", "Info.plist")),
        ("plutil", ("-remove", "hooks", "settings.json")),
        ("xattr", ("-w", "k", "v", "a")),
        ("xattr", ("-cr", "a")),
        ("tmutil", ("deletelocalsnapshots", "/")),
        ("tmutil", ("listbackups", "-d", "/Volumes/TM")),
        ("launchctl", ("load", "x.plist")),
        ("launchctl", ("print", "-x", "y")),
        ("mdutil", ("-i", "off", "/")),
        ("mdls", ("-plist", "out.plist", "a")),
        ("diskutil", ("apfs", "deleteVolume", "disk3s5")),
        ("dscl", (".", "-read", "/Users/ada", "ShadowHashData")),
        ("hdiutil", ("attach", "x.dmg", "-mountpoint", "/tmp/m")),
        ("hdiutil", ("create", "-srcfolder", "build", "x.dmg")),
        ("dscl", ("/Active Directory/X", "-read", "/Users/ada")),
        ("ditto", ("only-one",)),
    ):
        assert read_call(program, args).doubt is not None, (program, args)


def test_ditto_writes_its_destination_whole() -> None:
    acts = read_call("ditto", ("/tmp/profile/", "~/.claude/")).acts
    assert (Does.READ, "/tmp/profile/") in acts
    assert {(Does.WRITE, "~/.claude/"), (Does.WRITE_INTO, "~/.claude/")} <= set(acts)
    archive = read_call("ditto", ("-c", "-k", "App.app", "App.zip")).acts
    assert set(archive) == {(Does.READ, "App.app"), (Does.WRITE, "App.zip")}


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("ditto /tmp/clean-profile/ ~/.claude/", "self-protect-hook-folders"),
        ("find -E ~/.claude -regex '.*settings\\.json' -delete", "self-protect-hook-folders"),
        ("find -E ~ -regex '.*\\.swift$' -delete", "rm-root-or-home"),
        ("hdiutil attach ~/Downloads/x.dmg -mountpoint ~/.claude", "self-protect-hook-folders"),
        ("arch -arm64e -e X=1 rm -rf ~", "rm-root-or-home"),
        ("arch -x86_64 cat ~/.ssh/id_rsa", "credential-read"),
    ],
)
def test_macos_spellings_of_known_routes_are_read(verdict: Judge, command: str, rule: str) -> None:
    got = verdict(command)
    assert (got.decision, got.rule) == ("deny", rule), (command, got)
